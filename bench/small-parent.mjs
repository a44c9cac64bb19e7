// node bench/small-parent.mjs COMMAND [ARGS...]: runs COMMAND as a child of this small process,
// passing its output through, and exits with its status.
// Why: on Linux a child's peak resident size as it reports it itself (getrusage maxRSS, the floors'
// peak memory) starts at its parent's resident size when it was forked. The bench holds batches
// of tens of MB and reached hundreds; this process holds ~40 MB, less than any floor's own peak.
import { spawnSync } from 'node:child_process'

const [command, ...args] = process.argv.slice(2)
const child = spawnSync(command, args, { stdio: 'inherit' })
process.exit(child.status ?? 1)
