"""The media scanner (internal): finds inline files in recorded values and puts them in digest form.

It edits JSON *text* at positions (the rest of the text is kept byte for byte) and matches the
TypeScript scanner of ``@svc-run/sdk`` exactly; the shared vectors in ``fixtures/scanner-vectors``
run against both.
"""
