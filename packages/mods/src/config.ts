// The mod host's validated configuration (65-mod-host.md requirements 1, 3 and 9). Budgets are the
// overview's decision 8 defaults; each has a range so a typo cannot switch a budget off.
import { type ConfigOf, Schema } from '@tack/kernel'

/** One configured mod folder and the options its `userConfig` is checked against. */
export interface ModSpec {
  readonly dir: string
  readonly options?: Readonly<Record<string, unknown>>
}

const isModSpecList = (v: unknown): v is ModSpec[] =>
  Array.isArray(v) &&
  v.every(
    (m) =>
      typeof m === 'object' &&
      m !== null &&
      typeof (m as ModSpec).dir === 'string' &&
      (m as ModSpec).dir !== '' &&
      Object.keys(m).every((k) => k === 'dir' || k === 'options') &&
      ((m as ModSpec).options === undefined ||
        (typeof (m as ModSpec).options === 'object' &&
          (m as ModSpec).options !== null &&
          !Array.isArray((m as ModSpec).options))),
  )

export const ModsConfig = Schema.object({
  mods: Schema.json<ModSpec[]>({
    default: [],
    allowed: 'a list of {dir, options?} (dir a non-empty string, options an object)',
    test: isModSpecList,
    description:
      'Mod folders to load, in order (first outermost), each with its `userConfig` options; a relative `dir` is relative to the folder of the config file that sets it (docs/decisions/0130-config-relative-paths.md); read once at boot.',
  }),
  hookBudgetMs: Schema.integer({
    default: 10_000,
    min: 1,
    max: 600_000,
    description:
      "A hook's own time per dispatch; the clock pauses while its `next()` or a `$` call (except `$.clock.sleep`) is pending. It also bounds loading each mod instance (its top-level code and `register()`): one still loading at the bound is off, and stderr says so.",
  }),
  catchBudgetMs: Schema.integer({
    default: 1_000,
    min: 1,
    max: 60_000,
    description: 'Time a `.catch` handler gets after its hook failed.',
  }),
  promptEditBudgetMs: Schema.integer({
    default: 50,
    min: 1,
    max: 10_000,
    description: 'A `prompt.edit` hook budget (it runs on every keystroke).',
  }),
  sessionEndBudgetMs: Schema.integer({
    default: 1_500,
    min: 1,
    max: 60_000,
    description:
      "One wall-clock bound for a session's end, never paused: its `session.end` hooks, then the `$` work its mods left in flight, which dispose waits for; at the bound a `$.process.run` still running is killed and stderr names what was cut off (docs/decisions/0155-mod-work-at-session-end.md).",
  }),
  dataDir: Schema.string({
    nonEmpty: true,
    description:
      "tack's data folder; `$.store` files live in `<dataDir>/mod-store/`. Default `$TACK_HOME`, else `~/.tack`.",
  }).optional(),
})

export type ModsConfig = ConfigOf<typeof ModsConfig>
