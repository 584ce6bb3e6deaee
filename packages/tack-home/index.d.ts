export interface TackHomeOptions {
  /** Resolves a relative `TACK_HOME`; default the process's working folder. */
  readonly cwd?: string
  /** The user's home folder; default `env.HOME`, else the OS home. */
  readonly userHome?: string
}

/** The absolute path of tack's home folder for `env` (`TACK_HOME`; empty or blank means unset). */
export declare function resolveTackHome(
  env?: Readonly<Record<string, string | undefined>>,
  opts?: TackHomeOptions,
): string
