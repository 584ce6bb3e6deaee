// The bash tool's validated Config (TL-17). Every field has a default, a range checked at load and a
// README row. `timeoutMs` must not exceed `maxTimeoutMs`, checked across the two fields.
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { type ConfigOf, ObjectSchema, Schema } from '@tack/kernel'
import { MAX_TIMER_MS } from '@tack/process'

type Env = Record<string, string>

/** An absolute path, or one starting with `~/` (the user's home folder, expanded at each call). */
const isPathList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string' && (isAbsolute(v) || v.startsWith('~/')))

const PATH_LIST = 'a list of absolute paths or paths starting with ~/'

/**
 * Credentials a command has no business reading. `$TACK_HOME` itself (with its `.env`) is hidden through
 * `tackHome`, which the CLI sets; `~/.tack` is here for embedders that do not.
 */
export const DEFAULT_SANDBOX_DENY_READ = Object.freeze([
  '~/.ssh',
  '~/.gnupg',
  '~/.aws',
  '~/.azure',
  '~/.config/gcloud',
  '~/.kube',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.git-credentials',
  '~/.config/gh',
  '~/.npmrc',
  '~/.pypirc',
  '~/.cargo/credentials.toml',
  '~/.password-store',
  '~/.claude/.credentials.json',
  '~/.codex/auth.json',
  '~/.tack',
  // Docker's socket is root on the host (`docker run -v /:/host`): no sandbox survives it.
  '/run/docker.sock',
  '/var/run/docker.sock',
])

const isEnv = (value: unknown): value is Env =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string')

const fields = {
  timeoutMs: Schema.integer({
    default: 120_000,
    min: 1,
    max: MAX_TIMER_MS,
    description:
      'Milliseconds a command may run when the call gives no `timeout_ms`; then its process group is terminated (TIMEOUT). At most `maxTimeoutMs`.',
  }),
  maxTimeoutMs: Schema.integer({
    default: 600_000,
    min: 1,
    max: MAX_TIMER_MS,
    description:
      'The largest timeout a call may ask for with `timeout_ms`; larger requests are clamped to it and the output says so.',
  }),
  maxOutputBytes: Schema.integer({
    default: 64_000,
    min: 1,
    max: 64 * 1024 * 1024,
    description:
      'Bytes of the merged stdout/stderr kept in memory and returned (the tail); the whole output goes to a spill file that a truncated result names.',
  }),
  graceMs: Schema.integer({
    default: 3_000,
    min: 0,
    max: 600_000,
    description:
      "On timeout or abort: milliseconds between SIGTERM and SIGKILL to the command's process group. Keep it below the tools plugin's `abortGraceMs`.",
  }),
  envAllow: Schema.stringList({
    default: [],
    description:
      'Variable names (exact, case-sensitive) exempt from the secret scrub, which removes variables whose names contain KEY, SECRET, TOKEN, PASSWORD or CREDENTIAL (any case).',
  }),
  scratchRoot: Schema.absolutePath({
    default: join(tmpdir(), 'tack-scratch'),
    description:
      'Folder for spill files: `<scratchRoot>/<session id>/bash-<call id>.log`. The CLI sets `$TACK_HOME/scratch`.',
  }),
  scratchMaxAgeHours: Schema.integer({
    default: 168,
    min: 0,
    max: 87_600,
    description:
      'Hours after which a spill file in `scratchRoot` is removed (checked when the plugin loads, i.e. at each session start; issue 12.7). `0` keeps spill files until their session is removed (`tack sessions rm`).',
  }),
  envDeny: Schema.stringList({
    default: [],
    description:
      "Variable names (exact) always removed from a command's environment, whatever they look like and even when in `envAllow`. Besides these, every variable another plugin declares secret (`ctx.secrets`: the key variable of every configured llm endpoint, the search key, the names `$TACK_HOME/.env` defines) is removed, read at each call.",
  }),
  sandbox: Schema.enum(['auto', 'on', 'off'], {
    default: 'auto',
    description:
      'In the workspace-write and read-only permission modes, run commands in the OS sandbox (bubblewrap on Linux, seatbelt on macOS). `auto`: when available, else unconfined with a warning once per session; `on`: a call fails when it is unavailable; `off`: never.',
  }),
  sandboxNetwork: Schema.enum(['allow', 'deny'], {
    default: 'allow',
    description:
      'Whether sandboxed commands may use the network. `deny` leaves them only a private loopback.',
  }),
  sandboxWritable: Schema.json<string[]>({
    default: [],
    allowed: PATH_LIST,
    test: isPathList,
    description:
      'Folders sandboxed commands may write besides the workspace and the temp folders, in workspace-write mode (e.g. `~/.cache`). A control folder of the workspace listed itself (`/w/.git`) is writable too; listing the workspace does not open its control folders. read-only mode ignores them. `--sandbox-writable PATH` adds to it for a run.',
  }),
  sandboxDenyRead: Schema.json<string[]>({
    default: [...DEFAULT_SANDBOX_DENY_READ],
    allowed: PATH_LIST,
    test: isPathList,
    description:
      'Files and folders sandboxed commands cannot read (credentials). Setting it replaces the built-in list; to add paths, use `sandboxExtraDenyRead`.',
  }),
  sandboxExtraDenyRead: Schema.json<string[]>({
    default: [],
    allowed: PATH_LIST,
    test: isPathList,
    description:
      'More files and folders sandboxed commands cannot read, on top of `sandboxDenyRead` and the files other plugins declare secret (`ctx.secrets`: a session store kept outside `$TACK_HOME`).',
  }),
  tackHome: Schema.absolutePath({
    description:
      "tack's own folder, hidden from sandboxed commands (its `.env`, sessions, config); only `scratchRoot` inside it stays readable, so a truncated result's spill file can be read. The CLI sets `$TACK_HOME`.",
  }).optional(),
  env: Schema.json<Env>({
    allowed: 'an object of string values',
    test: isEnv,
    description:
      "The environment commands start from, before the scrub. Default: tack's own process environment, read at each call.",
  }).optional(),
}

type Shape = typeof fields

class BashToolConfigSchema extends ObjectSchema<Shape> {
  override check(value: unknown, path: string): ReturnType<ObjectSchema<Shape>['check']> {
    const result = super.check(value, path)
    if (!result.ok || result.value.timeoutMs <= result.value.maxTimeoutMs) return result
    const at = path ? `${path}.timeoutMs` : 'timeoutMs'
    return {
      ok: false,
      issues: [
        {
          path: at,
          message: `must be at most maxTimeoutMs (${result.value.maxTimeoutMs}) (got ${result.value.timeoutMs})`,
        },
      ],
    }
  }
}

export const BashToolConfig = new BashToolConfigSchema(fields, 'The bash tool (@tack/tool-bash).')
export type BashToolConfig = ConfigOf<typeof BashToolConfig>
