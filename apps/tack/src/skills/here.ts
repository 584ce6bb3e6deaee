// The skills and commands a session in this workspace would find, for the commands that show them
// without starting one (`tack skills`, `tack doctor`): the boot role's folders (folders.ts) and the
// user's `plugins.skills` config, read by @tack/skills as the plugin reads them.
import type { Discovery } from '@tack/skills'
import type { Resolved } from '../settings.ts'
import { knowHowFolders } from './folders.ts'

export interface SkillsHere {
  readonly discovery: Discovery
  readonly catalogMaxBytes: number
  /** `plugins.skills: false`. */
  readonly off: boolean
}

export async function skillsHere(resolved: Resolved, env: NodeJS.ProcessEnv): Promise<SkillsHere> {
  const skills = await import('@tack/skills')
  const configured = resolved.settings.plugins.skills
  const own = configured === false || configured === undefined ? {} : (configured as Record<string, unknown>)
  const config = skills.SkillsConfig.parse(own)
  const discovery = skills.discoverKnowHow({
    folders: knowHowFolders({ home: resolved.paths.home, cwd: resolved.cwd, env, extraPaths: config.paths }),
    cwd: resolved.cwd,
    maxFileBytes: config.maxFileBytes,
  })
  return { discovery, catalogMaxBytes: config.catalogMaxBytes, off: configured === false }
}
