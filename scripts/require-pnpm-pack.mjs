// `prepack` of every package: packing (and so publishing) goes through pnpm, which replaces the
// `workspace:` ranges of the manifest by the packages' versions. `npm pack` keeps them, and its
// tarball cannot be installed (`@svc-run/cli` depends on `@svc-run/server@workspace:*`), so it
// stops here instead of writing that tarball.
const agent = process.env.npm_config_user_agent ?? '';
if (!agent.startsWith('pnpm/')) {
  console.error(
    'Pack and publish this package with pnpm (npx -y pnpm@10.34.8 pack), which replaces its ' +
      '`workspace:` dependency ranges with versions; a tarball made by another tool keeps them and does not install.',
  );
  process.exit(1);
}
