// Fails fast when scripts are not running on the project's own Node 24 (see README).
const major = Number(process.versions.node.split('.')[0]);
if (major !== 22 && major !== 24) {
  console.error(
    `This project runs on Node 22 or 24; got ${process.version}. Run scripts through pnpm (npx -y pnpm@10.34.8 ...), which puts the project's Node 24 first on PATH.`,
  );
  process.exit(1);
}
