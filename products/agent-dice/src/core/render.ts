// Turning a hit into the nudge text (R19). Every host renders through here, so the same slot reads
// the same under Claude Code, Codex, pi and tack.
import type { DiceResult, DiceSlotConfig } from './types.ts'

/** Replaces every occurrence of `{rolls}`, `{best}`, `{triggerValue}`, `{diceCount}`, `{slotName}`. */
export function applyPlaceholders(message: string, result: DiceResult): string {
  const values: Record<string, string> = {
    '{rolls}': result.rolls.join(', '),
    '{best}': String(result.best),
    '{triggerValue}': String(result.triggerValue ?? result.best),
    '{diceCount}': String(result.diceCount),
    '{slotName}': result.slotName,
  }
  // split/join, not replaceAll with a string: a replacement must never be read as a `$` pattern.
  let out = message
  for (const [token, value] of Object.entries(values)) out = out.split(token).join(value)
  return out
}

/** `🎲 Nat <triggerValue>! <message>`, or the bare message when `flavor` is false. */
export function renderTrigger(
  result: DiceResult,
  slot: Pick<DiceSlotConfig, 'flavor' | 'onTrigger'>,
): string {
  const message = applyPlaceholders(slot.onTrigger.message, result)
  return slot.flavor !== false ? `🎲 Nat ${result.triggerValue ?? result.best}! ${message}` : message
}

/** The rendered block for every hit, joined with `\n` in result order; empty when nothing hit. */
export function renderTriggers(
  results: readonly DiceResult[],
  slots: ReadonlyMap<string, DiceSlotConfig>,
): string {
  const lines: string[] = []
  for (const result of results) {
    const slot = slots.get(result.slotName)
    if (result.triggered && slot) lines.push(renderTrigger(result, slot))
  }
  return lines.join('\n')
}

/** `<name>: <n>d<die> = [a, b] (best: B)` — the roll line hooks print for a miss. */
export function rollLine(result: DiceResult, die: number): string {
  return `${result.slotName}: ${result.diceCount}d${die} = [${result.rolls.join(', ')}] (best: ${result.best})`
}
