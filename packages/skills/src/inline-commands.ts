// `` !`cmd` `` in a skill or command body (85-skills-and-commands.md K4, C2, K5): Claude Code runs the
// command before the model sees the text and puts its output in its place. tack does that only where the
// body may run code — a skill or command from the user's own folders, or any in a trusted workspace —
// and only through the runner it is given (the bash tool, through the tools pipeline and its
// permissions). Elsewhere the text stays as written, with one note saying why it did not run.

/** `` !`…` ``: a bang right before a back-quoted command on one line. */
const INLINE = /!`([^`\n]+)`/g

export function inlineCommandsOf(body: string): string[] {
  return [...body.matchAll(INLINE)].map((m) => m[1] as string)
}

/** What running one command gave: its output, or why it could not run (denied, failed). */
export type InlineCommandOutcome =
  | { readonly kind: 'output'; readonly text: string }
  | { readonly kind: 'failed'; readonly reason: string }

export type InlineCommandRunner = (command: string, signal: AbortSignal) => Promise<InlineCommandOutcome>

export type InlineCommandPolicy =
  | { readonly kind: 'run'; readonly run: InlineCommandRunner }
  | { readonly kind: 'keep'; readonly why: string }

/**
 * `body` with each `` !`cmd` `` replaced by its output (one at a time, in order), or, when the policy
 * keeps them, unchanged with a note appended naming why none ran.
 */
export async function expandInlineCommands(
  body: string,
  policy: InlineCommandPolicy,
  signal: AbortSignal,
): Promise<string> {
  const commands = inlineCommandsOf(body)
  if (commands.length === 0) return body
  if (policy.kind === 'keep')
    return `${body.replace(/\s+$/, '')}\n\n[tack: the ${commands.length === 1 ? 'command' : `${commands.length} commands`} marked !\`…\` above did not run: ${policy.why}]`
  const outputs: string[] = []
  for (const command of commands) {
    if (signal.aborted) {
      outputs.push(`[not run: interrupted]`)
      continue
    }
    const outcome = await policy.run(command, signal)
    outputs.push(
      outcome.kind === 'output'
        ? outcome.text.replace(/\s+$/, '')
        : `[${command} did not run: ${outcome.reason}]`,
    )
  }
  let i = 0
  return body.replace(INLINE, () => outputs[i++] ?? '')
}
