// Telling a slash command from a prompt, the same way in every host.

const SLASH = /^\/([A-Za-z0-9][\w:.-]*)(?:\s+([\s\S]*))?$/

/** `/name args`: the name and its trimmed arguments; undefined for an ordinary prompt (or `/`, `/ x`). */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const m = SLASH.exec(text.trim())
  return m ? { name: m[1], args: m[2]?.trim() ?? '' } : undefined
}

const NAME = /^[A-Za-z0-9][\w:.-]*$/

export function isCommandName(name: string): boolean {
  return NAME.test(name)
}
