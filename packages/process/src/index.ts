// @tack/process: the process runner that the bash tool and hook runners share — one `bash -c` as the
// leader of its own process group, group kill on timeout or abort (SIGTERM, then SIGKILL), bounded
// output, a spill file, trusted spawns, and the OS sandbox launchers (bubblewrap, seatbelt). No cordis.
export {
  MAX_TIMER_MS,
  type ProcessResult,
  type RunOptions,
  runProcess,
  type SpawnError,
} from './run-process.ts'
export { commandLine, quoteShellArg } from './shell-quote.ts'
export { groupAlive, KillLadder, reapGroup, signalGroup } from './process-group.ts'
export { findOnPath, isExecutable } from './executable.ts'
export { decodeTail, TailBuffer } from './tail-buffer.ts'
export {
  spawnTrusted,
  TRUSTED_DEFAULT_GRACE_MS,
  TRUSTED_DEFAULT_MAX_OUTPUT_BYTES,
  type TrustedSpawnOptions,
} from './trusted.ts'
export { bwrapArgs, type BwrapLayout } from './sandbox/bwrap-args.ts'
export { detectSandbox, probeSandbox, type SandboxSupport } from './sandbox/detect.ts'
export { isWithin, type SandboxPolicy } from './sandbox/policy.ts'
export { sbplString, seatbeltProfile } from './sandbox/seatbelt.ts'
export {
  type ProcessWrapper,
  sandboxWrapper,
  type SandboxWrapperOptions,
  type WrappedCommand,
} from './sandbox/wrapper.ts'
export { sweepPlaceholders } from './sandbox/placeholder-ledger.ts'
