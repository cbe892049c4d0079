const mods = process.argv.slice(2);
for (const m of mods) {
  globalThis.gc(); const b = process.memoryUsage().heapUsed;
  await import(m);
  globalThis.gc(); const a = process.memoryUsage().heapUsed;
  console.log(m, ((a - b) / 1048576).toFixed(1), 'MB');
}
