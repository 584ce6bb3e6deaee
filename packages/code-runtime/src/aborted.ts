// What an aborted run says (Esc, Ctrl-C, SIGTERM, an ACP cancel), on whichever thread it was decided:
// the guest's interrupt handler (quickjs-run.ts) or the host before the run started (sandbox-worker.ts).

export const INTERRUPTED = 'the program was interrupted: the run was aborted'
export const INTERRUPTED_BEFORE_START = 'the program was interrupted before it started: the run was aborted'
