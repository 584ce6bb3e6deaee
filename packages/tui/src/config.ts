// The validated Config of TuiPlugin (`plugins.tui` in a config file).
import { type ConfigOf, Schema } from '@tack/kernel'

export const TuiConfig = Schema.object({
  historyEntries: Schema.integer({
    default: 1000,
    min: 0,
    max: 100_000,
    description:
      'Prompts the prompt box keeps per folder (↑/↓ recalls them across sessions), in $TACK_HOME/history; 0 keeps none and writes nothing.',
  }),
  diffMaxLines: Schema.integer({
    default: 40,
    min: 5,
    max: 10_000,
    description:
      "Lines of an edit's or a write's diff a tool card shows before it says how many more there are.",
  }),
  failureTailLines: Schema.integer({
    default: 6,
    min: 1,
    max: 200,
    description:
      "Last lines of a failed call's output its tool card shows (where a command prints its error), after how many earlier lines there were.",
  }),
  innerCallsShown: Schema.integer({
    default: 8,
    min: 1,
    max: 1000,
    description:
      "Latest calls a run_code program's or a subagent's card lists with their status, after how many earlier ones there were and how many of those failed.",
  }),
  permissionNotifyMs: Schema.integer({
    default: 6000,
    min: 1000,
    max: 3_600_000,
    description:
      'Milliseconds a permission question may wait unanswered before `ui/notification` (a Claude Code Notification hook, `permission_prompt`) says so, once per question.',
  }),
  idleNotifyMs: Schema.integer({
    default: 60_000,
    min: 1000,
    max: 86_400_000,
    description:
      'Milliseconds the prompt box may sit untouched after a turn ends before `ui/notification` (a Claude Code Notification hook, `idle_prompt`) says tack is waiting, once per idle spell.',
  }),
})

export type TuiConfig = ConfigOf<typeof TuiConfig>
