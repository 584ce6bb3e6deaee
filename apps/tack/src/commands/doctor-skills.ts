// `tack doctor`'s line about Agent Skills and prompt commands (85-skills-and-commands.md K2, K3): how many
// a session here finds, how many are shadowed, how big the catalog is against its bound, and each file
// that could not be read as a warning naming file and key.
import { skillsHere } from '../skills/here.ts'
import type { Resolved } from '../settings.ts'

export async function reportSkills(
  r: Resolved,
  env: NodeJS.ProcessEnv,
  line: (label: string, value: string) => void,
  warnings: string[],
): Promise<void> {
  const here = await skillsHere(r, env)
  if (here.off) {
    line('skills', 'off (plugins.skills: false)')
    return
  }
  const { catalogOf, warningLine } = await import('@tack/skills')
  const d = here.discovery
  const skills = d.items.filter((i) => i.kind === 'skill').length
  const commands = d.items.length - skills
  const catalog = catalogOf(d.items, here.catalogMaxBytes)
  const size = Buffer.byteLength(catalog.text)
  const left = catalog.leftOut > 0 ? `, ${catalog.leftOut} left out of it` : ''
  const shadowed = d.shadowed.length > 0 ? `, ${d.shadowed.length} shadowed` : ''
  line(
    'skills',
    `${skills} skills, ${commands} commands${shadowed}; catalog ${size} of ${here.catalogMaxBytes} bytes${left} (tack skills list)`,
  )
  for (const w of d.warnings) warnings.push(`skills: ${warningLine(w)}`)
}
