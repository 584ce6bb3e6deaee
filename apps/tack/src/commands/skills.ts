// `tack skills list|show` (85-skills-and-commands.md K2): the skills and prompt commands a run in this
// workspace would find — the same folders, in the same order (skills/folders.ts), read by the same code
// (@tack/skills) — with the shadowed ones, and every warning naming its file and key. Nothing in them
// runs: `show` prints a body as written.
import { parseArgs } from 'node:util'
import { UsageError } from '../args.ts'
import type { CommandIO } from '../io.ts'
import { printableIO } from '../printable.ts'
import { resolveSettings } from '../settings.ts'
import { skillsHere } from '../skills/here.ts'

export const SKILLS_USAGE = 'usage: tack skills list [--json] | tack skills show NAME [--json]'

export const SKILLS_HELP = `usage: tack skills SUBCOMMAND [--config FILE] [--cwd DIR] [--profile NAME] [--trust]

  tack skills list [--json]
      the skills (SKILL.md folders) and prompt commands a session here finds: name, kind, scope (user or
      project), the folder it was found under, description; the ones shadowed by an item of the same
      name; warnings about files that could not be read
  tack skills show NAME [--json]
      one skill or command: where it is, its front matter, and its body as written (nothing is run)
`

const OPTIONS = {
  json: { type: 'boolean' },
  config: { type: 'string' },
  cwd: { type: 'string' },
  profile: { type: 'string' },
  trust: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export async function skillsCommand(argv: readonly string[], terminal: CommandIO): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(`skills: ${(error as Error).message.split(/\.\s/)[0]} (${SKILLS_USAGE})`)
  }
  const { values, positionals } = parsed
  if (values.help) {
    terminal.out(SKILLS_HELP)
    return 0
  }
  // names, descriptions and bodies come from files a repository controls; JSON escapes itself
  const io = values.json ? terminal : printableIO(terminal)
  const flags = {
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
    ...(values.trust !== undefined ? { trust: values.trust } : {}),
  }
  const resolved = await resolveSettings(flags, io.env, io.cwd)
  const skills = await import('@tack/skills')
  const { discovery } = await skillsHere(resolved, io.env)
  const [sub, ...rest] = positionals
  switch (sub) {
    case 'list':
      if (rest.length > 0) throw new UsageError(SKILLS_USAGE)
      if (values.json) io.out(`${JSON.stringify(skills.listingJson(discovery))}\n`)
      else io.out(`${skills.listingText(discovery)}\n`)
      return 0
    case 'show': {
      const [name, ...more] = rest
      if (name === undefined || more.length > 0) throw new UsageError('usage: tack skills show NAME')
      const item = discovery.items.find((i: { name: string }) => i.name === name)
      if (!item) {
        const shadowed = discovery.shadowed.some((s) => s.item.name === name)
        throw new UsageError(
          `skills show: no skill or command named ${name}${shadowed ? '' : ' (tack skills list shows them)'}`,
        )
      }
      if (values.json) io.out(`${JSON.stringify(item)}\n`)
      else io.out(showText(item, resolved.trust.trusted))
      return 0
    }
    default:
      throw new UsageError(sub ? `unknown skills command "${sub}" (${SKILLS_USAGE})` : SKILLS_USAGE)
  }
}

function showText(item: import('@tack/skills').KnowHowItem, trusted: boolean): string {
  const acts = item.scope === 'user' || trusted
  const lines = [
    `${item.name}  (${item.kind}, ${item.scope}, ${item.source})`,
    `  file:          ${item.file}`,
    `  description:   ${item.description}`,
    `  model:         ${item.disableModelInvocation ? 'not offered (disable-model-invocation)' : 'in the catalog, loadable by the skill tool'}`,
    `  people:        ${item.userInvocable ? `/${item.name}` : 'not offered as /name (user-invocable: false)'}`,
  ]
  if (item.argumentHint) lines.push(`  argument-hint: ${item.argumentHint}`)
  if (item.allowedTools.length > 0)
    lines.push(
      `  allowed-tools: ${item.allowedTools.join(', ')}${acts ? '' : ' (ignored: untrusted workspace)'}`,
    )
  const extra = Object.keys(item.frontMatter).filter(
    (k) =>
      ![
        'name',
        'description',
        'allowed-tools',
        'argument-hint',
        'disable-model-invocation',
        'user-invocable',
      ].includes(k),
  )
  for (const key of extra) lines.push(`  ${`${key}:`.padEnd(14)} ${JSON.stringify(item.frontMatter[key])}`)
  return `${lines.join('\n')}\n\n${item.body.replace(/^\s*\n/, '').replace(/\s+$/, '')}\n`
}
