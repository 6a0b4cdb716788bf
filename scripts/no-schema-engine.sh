#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded on these machines.
# `prisma generate` only checks that the file exists; migrations go through scripts/migrate.ts.
echo "The native schema engine is not used here: run 'npm run db:migrate' (scripts/migrate.ts)." >&2
exit 1
