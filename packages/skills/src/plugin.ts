// The skills plugin: finds the user's and the workspace's skills and command files once at load
// (85-skills-and-commands.md K2, C1), says each problem once on stderr (a warning naming file and key),
// and provides the index as `ctx.skills`.
import { definePlugin } from '@tack/kernel'
import { listenForCommandTurns } from './command-turn-seams.ts'
import { CommandTurns } from './command-turns.ts'
import { SkillsConfig } from './config.ts'
import { SkillsService } from './service.ts'
import { registerSlashCommands } from './slash-commands.ts'
import { warningLine } from './types.ts'

declare module 'cordis' {
  interface Context {
    skills: SkillsService
  }
}

export const SkillsPlugin = definePlugin({
  name: 'skills',
  Config: SkillsConfig,
  apply(ctx, config) {
    const service = new SkillsService({
      folders: config.folders,
      ...(config.cwd ? { cwd: config.cwd } : {}),
      maxFileBytes: config.maxFileBytes,
      trusted: config.trusted,
    })
    const logger = ctx.logger('skills')
    for (const w of service.unsaidWarnings()) logger.warn(warningLine(w))
    ctx.provide('skills', service)
    // C1–C3: each command and person-invocable skill as `/name`, once the command registry is there.
    const turns = new CommandTurns()
    listenForCommandTurns(ctx, turns)
    ctx.inject(['commands'], (sub) => {
      registerSlashCommands(sub, service, turns)
    })
  },
})
