// The skills plugin (85-skills-and-commands.md K2–K5, C2): finds the user's and the workspace's skills
// and command files, says each problem once on stderr (a warning naming file and key), provides the
// index as `ctx.skills`, and gives the model the catalog (a system prompt section), the `skill` tool and
// `$name` mentions, and people `/skills`. `allowed-tools` grants are applied on `tools/pre-execute`.
import { registerCommand, registerMentionProvider } from '@tack/commands'
import { definePlugin } from '@tack/kernel'
import { listenForCommandTurns } from './command-turn-seams.ts'
import { CommandTurns } from './command-turns.ts'
import { registerTool, type ToolRegistry } from '@tack/tools'
import { modelInvocable } from './catalog.ts'
import { CatalogSection } from './catalog-section.ts'
import { SkillsConfig } from './config.ts'
import { mountGrants } from './grants.ts'
import { mountPromptListener, skillMentionProvider } from './mentions.ts'
import { SkillsService } from './service.ts'
import { registerSlashCommands } from './slash-commands.ts'
import { createSkillTool } from './skill-tool.ts'
import { skillsCommand } from './skills-command.ts'
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
    const say = (line: string) => logger.warn('%s', line)
    for (const w of service.unsaidWarnings()) say(warningLine(w))
    ctx.provide('skills', service)
    const turns = new CommandTurns()
    listenForCommandTurns(ctx, turns)

    const catalog = new CatalogSection(service, config.catalogMaxBytes, say)
    catalog.mount(ctx)
    // The tool is offered only while there is something to load: a person without skills pays nothing
    // in the request, and the first skill added mid-session brings it in the same header change as the
    // catalog (docs/decisions/0270-skills.md).
    let syncTool = () => {}
    const refresh = () => {
      catalog.refresh()
      syncTool()
    }
    mountPromptListener(ctx, service, refresh)
    mountGrants(ctx)
    ctx.inject(['tools'], (sub) => {
      let remove: (() => void) | undefined
      const tool = createSkillTool(service, () => ctx.get('tools') as ToolRegistry | undefined)
      syncTool = () => {
        const wanted = modelInvocable(service.items()).length > 0
        if (wanted && !remove) remove = registerTool(sub, tool)
        else if (!wanted && remove) {
          remove()
          remove = undefined
        }
      }
      syncTool()
      sub.effect(
        () => () => {
          syncTool = () => {}
        },
        'skills: stop offering the skill tool',
      )
    })
    ctx.inject(['commands'], (sub) => {
      registerCommand(sub, skillsCommand(service, refresh))
      registerMentionProvider(sub, skillMentionProvider(service))
      // C1–C3: each command and person-invocable skill as `/name`.
      registerSlashCommands(sub, service, turns)
    })
  },
})
