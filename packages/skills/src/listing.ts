// How skills and commands are listed to people — `/skills` and `tack skills list` share it
// (85-skills-and-commands.md K2): name, kind, scope, where it was found, and its description; the
// shadowed ones after, each naming what it is shadowed by; then the warnings.
import type { Discovery } from './discover.ts'
import { type KnowHowItem, warningLine } from './types.ts'

function flags(item: KnowHowItem): string {
  const out: string[] = []
  if (item.disableModelInvocation) out.push('people only')
  if (!item.userInvocable) out.push('model only')
  return out.length > 0 ? ` [${out.join(', ')}]` : ''
}

export function itemLine(item: KnowHowItem): string {
  return `${item.name}  ${item.kind}  ${item.scope}  ${item.source}${flags(item)} — ${item.description}`
}

export function listingText(d: Discovery): string {
  const lines: string[] = []
  if (d.items.length === 0) lines.push('no skills or commands found')
  for (const item of d.items) lines.push(itemLine(item))
  if (d.shadowed.length > 0) {
    lines.push('', 'shadowed (not used):')
    for (const s of d.shadowed)
      lines.push(
        `${s.item.name}  ${s.item.kind}  ${s.item.scope}  ${s.item.source} — shadowed by the ${s.by.kind} in ${s.by.source}`,
      )
  }
  if (d.warnings.length > 0) {
    lines.push('', 'warnings:')
    for (const w of d.warnings) lines.push(warningLine(w))
  }
  return lines.join('\n')
}

/** The JSON a script reads: every item without its body, the shadowed ones, the warnings. */
export function listingJson(d: Discovery): unknown {
  const row = (i: KnowHowItem) => ({
    name: i.name,
    kind: i.kind,
    scope: i.scope,
    source: i.source,
    file: i.file,
    description: i.description,
    modelInvocable: !i.disableModelInvocation,
    userInvocable: i.userInvocable,
    allowedTools: i.allowedTools,
    ...(i.argumentHint ? { argumentHint: i.argumentHint } : {}),
  })
  return {
    items: d.items.map(row),
    shadowed: d.shadowed.map((s) => ({
      ...row(s.item),
      shadowedBy: { kind: s.by.kind, source: s.by.source, file: s.by.file },
    })),
    warnings: d.warnings,
  }
}
