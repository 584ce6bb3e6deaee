// `tack mods list|check|capabilities` (80-cli.md §7.2; 65-mod-host.md requirement 12): the mods a run
// would load with the events and `$` nouns each uses and whether tack supports them; a mod folder
// checked without running a session; the host's events and nouns as JSON.
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import { CommandError } from '../errors.ts'
import type { CommandIO } from '../io.ts'
import { printableIO } from '../printable.ts'
import { findModFolders } from '../mod-folders.ts'
import { resolveSettings } from '../settings.ts'
import { HOW_TO_TRUST } from '../workspace-trust.ts'

const USAGE = 'usage: tack mods list | tack mods check DIR | tack mods capabilities'

export async function modsCommand(args: string[], flags: CommonFlags, terminal: CommandIO): Promise<number> {
  const [sub, ...rest] = args
  // A mod's name, events and problems come from its folder; JSON output is escaped by JSON itself.
  const io = flags.json ? terminal : printableIO(terminal)
  const mods = await import('@tack/mods')
  switch (sub) {
    case 'capabilities':
      io.out(`${JSON.stringify(mods.capabilities(), null, 2)}\n`)
      return 0
    case 'check': {
      if (rest.length !== 1) throw new UsageError(`tack mods check needs one folder (${USAGE})`)
      const check = await mods.checkModFolder(rest[0])
      if (flags.json) io.out(`${JSON.stringify(check)}\n`)
      else {
        io.out(`mod      ${check.name ?? '(unreadable)'}\n`)
        if (check.scan) {
          io.out(`events   ${check.scan.events.join(', ') || '(none)'}\n`)
          io.out(`calls    ${check.scan.calls.map((c) => `$.${c}`).join(', ') || '(none)'}\n`)
        }
        io.out(
          check.ok
            ? 'loads in tack: yes (checked from its source; nothing of it was run)\n'
            : `loads in tack: no\n${check.problems.map((p) => `  ${p}\n`).join('')}`,
        )
      }
      if (!check.ok) throw new CommandError(`${rest[0]}: this mod does not load in tack`)
      return 0
    }
    case 'list':
      return await listMods(flags, io)
    default:
      throw new UsageError(sub ? `unknown mods command "${sub}" (${USAGE})` : USAGE)
  }
}

async function listMods(flags: CommonFlags, io: CommandIO): Promise<number> {
  const { checkModFolder, SUPPORTED_EVENTS, SUPPORTED_NOUNS } = await import('@tack/mods')
  const { settings, paths, cwd, trust } = await resolveSettings(flags, io.env, io.cwd)
  const found = findModFolders(settings, paths, cwd, trust.trusted, flags.mod, io.cwd)
  const off = settings.plugins.mods === false
  if (found.specs.length === 0 && found.heldBack.length === 0) {
    io.out(
      `no mods (put mod folders in ${paths.mods}, name them under plugins.mods.mods, or pass --mod DIR)\n`,
    )
    return 0
  }
  const events = new Set<string>(SUPPORTED_EVENTS)
  let broken = 0
  for (const spec of found.specs) {
    const check = await checkModFolder(spec.dir, spec.options, true)
    const mark = (event: string) =>
      event.includes('*') || event.startsWith('!') || events.has(event) ? event : `${event} (unsupported)`
    const nounOk = (call: string) => Object.hasOwn(SUPPORTED_NOUNS, call.split('.')[0])
    io.out(`${check.name ?? spec.dir}  ${spec.dir}${off ? '  (off: plugins.mods is false)' : ''}\n`)
    if (check.scan) {
      io.out(`  events  ${check.scan.events.map(mark).join(', ') || '(none)'}\n`)
      const nouns = [...new Set(check.scan.calls.map((c) => c.split('.')[0]))]
      io.out(`  nouns   ${nouns.map((n) => (nounOk(n) ? n : `${n} (unsupported)`)).join(', ') || '(none)'}\n`)
    }
    if (check.ok) io.out('  loads   yes\n')
    else {
      broken++
      for (const p of check.problems) io.out(`  BROKEN  ${p}\n`)
    }
  }
  for (const dir of found.heldBack)
    io.out(`not run  ${dir}: this workspace is not trusted (${HOW_TO_TRUST})\n`)
  return broken ? 1 : 0
}
