// The shell's exit code for a signal that ended a command: 128 + the signal's number.
export const SIGNAL_EXIT_CODES: Readonly<Partial<Record<NodeJS.Signals, number>>> = Object.freeze({
  SIGINT: 130,
  SIGTERM: 143,
  SIGHUP: 129,
})
