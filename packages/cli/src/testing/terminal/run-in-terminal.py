"""Test support: runs a command on a pseudo-terminal (Python's standard pty module), as a user's
terminal would, answering its prompts.

Usage: python3 run-in-terminal.py '<JSON>' where the JSON is
{"argv": [...], "cwd": "...", "answers": [["<prompt text>", "<answer>"], ...]}.
Each answer is typed (with Enter) once its prompt text has appeared on the terminal since the
previous answer: no timing is assumed. Everything the terminal showed is written to stdout; the
exit code is the command's.
"""

import json
import os
import pty
import sys

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec["cwd"])
    os.execvp(spec["argv"][0], spec["argv"])

shown = b""
answered_at = 0
answers = list(spec["answers"])
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:  # EIO: the command closed the terminal
        break
    if not chunk:
        break
    shown += chunk
    while answers and answers[0][0].encode() in shown[answered_at:]:
        os.write(fd, answers[0][1].encode() + b"\r")
        answered_at = len(shown)
        answers.pop(0)

_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(shown)
sys.stdout.flush()
sys.exit(os.waitstatus_to_exitcode(status))
