// How a host shows a prompt a slash command expanded to (85-skills-and-commands.md C2,
// docs/decisions/0275-prompt-commands.md): the model gets Claude Code's header (`<command-message>`,
// `<command-name>`, `<command-args>`) and the whole body, while the person sees what they typed, `/name
// args`. Hosts apply it to the `user/message` a `command/expanded` event announces, live and on replay.

const HEADER =
  /^<command-message>[^<\n]*<\/command-message>\n<command-name>\/([^<\n]+)<\/command-name>(?:\n<command-args>([\s\S]*?)<\/command-args>)?/

/** `/name args` for an expanded command prompt; undefined for text without the header. */
export function typedCommandOf(text: string): string | undefined {
  const m = HEADER.exec(text)
  if (!m) return undefined
  return m[2] ? `/${m[1]} ${m[2]}` : `/${m[1]}`
}
