// The slice of Claude Code's mod API (`claude-code.d.ts`, 2.1.287+) this mod touches, typed loosely on
// purpose: every value that comes from a host is checked before use, because the same module runs under
// Claude Code and under tack's mod host (`65-mod-host.md`), whose shapes may drift apart. Type-only: this
// file is erased by the build and the mod never imports `claude-code` at run time.

export type Timer = { cancel(): unknown }

export type Host$ = {
  fs: {
    write(path: string, text: string): Promise<unknown>
    read(path: string, options?: { as?: 'text' }): Promise<unknown>
    exists(path: string): Promise<unknown>
  }
  env: { get(name: string): Promise<unknown> }
  session: {
    id(): Promise<unknown>
    version(): Promise<unknown>
    usage(): Promise<unknown>
    cwd(): Promise<unknown>
  }
  clock: {
    now(): Promise<unknown>
    sleep(ms: number): Promise<unknown>
    every(ms: number, fn: () => unknown): unknown
  }
  process: { run(argv: string[]): Promise<unknown> }
}

/** A frozen event: read-only plain data whose fields the mod checks itself. */
export type Ev = Readonly<Record<string, unknown>>

export type Next = (e: Ev) => Promise<unknown>
export type StreamNext = (e: Ev) => AsyncGenerator<unknown, unknown, unknown>

export type Hook = ($: Host$, e: Ev, next: Next) => Promise<unknown>
export type StreamHook = ($: Host$, e: Ev, next: StreamNext) => AsyncGenerator<unknown, unknown, unknown>

export type Registration = { catch(handler: Hook): unknown }
export type On = {
  (event: 'turn.step', hook: StreamHook): Registration
  (event: string, hook: Hook): Registration
}
