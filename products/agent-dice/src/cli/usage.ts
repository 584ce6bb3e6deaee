// The usage text both bins print (R1, R23); an embedder names itself in the first line (`tack dice`).
export const USAGE = `Usage: agent-dice <command> [options]

Slot Management:
  register <name> [options]    Register a dice slot
  unregister <name>            Remove a slot
  list                         List all registered slots

Per-Slot Operations:
  status <name>                Show current dice status
  roll <name>                  Roll without state change (dry run)
  reset <name>                 Reset accumulator
  clear <name>                 Clear state
  odds <name> [--to <n>]       Per-turn and cumulative odds by depth

Hosts:
  install [claude|codex]       Register the Stop and SessionStart hooks (default: claude)
  check [claude|codex]         Verify the installation
  uninstall [claude|codex]     Remove our hooks (--purge-data also deletes data we created)
  hook <name>                  Run a hook: claude-stop, claude-session-start,
                               codex-stop, codex-session-start

Register Options:
  --die <n>                    Die size (default: 20)
  --target <n>                 Target number (default: the die size)
  --target-mode <mode>         exact|gte|lte (default: exact)
  --type <type>                accumulator|fixed|single (default: accumulator)
  --accumulation-rate <n>      Turns per +1 die (default: 7)
  --max-dice <n>               Max dice cap (default: 100)
  --fixed-count <n>            Dice count for fixed type (default: 1)
  --cooldown <mode>            per-session|none (default: per-session)
  --no-clear-on-start          Don't clear on session start
  --no-reset-on-trigger        Don't reset accumulator on trigger
  --no-flavor                  Don't prepend dice emoji + roll lingo
  --message <msg>              Trigger message for stderr

Common Options:
  --session <id>               Session for status, roll, reset, clear, odds
  --json                       Print one JSON object (exit codes unchanged)

Environment:
  AGENT_DICE_HOST=<host>       claude (default, ~/.claude/dice), codex
                               (\${CODEX_HOME:-~/.codex}/dice) or tack (\${TACK_HOME:-~/.tack}/dice)
  AGENT_DICE_BASE=<dir>        Explicit base dir (wins over the host; alias CC_DICE_BASE)
  AGENT_DICE_SESSION_ID=<id>   Session id (alias CC_DICE_SESSION_ID)
  CLAUDE_CONFIG_DIR=<dir>      Claude's folder for transcripts and settings.json (default ~/.claude)
  DEBUG=1|agent-dice           Diagnostics and stacks on stderr`

/** The usage as `program` prints it: the same text under the name the person typed. */
export function usageFor(program: string | undefined): string {
  return program === undefined ? USAGE : USAGE.replace('Usage: agent-dice ', `Usage: ${program} `)
}
