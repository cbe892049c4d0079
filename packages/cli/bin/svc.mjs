#!/usr/bin/env node
// The `svc` executable: a committed launcher, so package managers can link it before the build
// exists. The program itself is the built `dist/bin.js`.
await import('../dist/bin.js');
