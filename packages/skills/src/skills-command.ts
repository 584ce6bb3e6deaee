// `/skills` (85-skills-and-commands.md K2): the skills and commands this session found, looked for again
// first, with the shadowed ones and the warnings. One command in the @tack/commands registry, so every
// host has it; it answers with text and sends nothing to the model.
import type { CommandDefinition } from '@tack/commands'
import { listingText } from './listing.ts'
import type { SkillsService } from './service.ts'

export function skillsCommand(service: SkillsService, onRefresh: () => void): CommandDefinition {
  return {
    name: 'skills',
    description: 'Skills and prompt commands found: name, kind, scope, source, description; shadowed ones',
    run: () => {
      onRefresh()
      return { kind: 'text', text: listingText(service.discovery()) }
    },
  }
}
