// `@` completion of MCP resources for the prompt box (55-mcp.md M10): `@` and the head of a server's name
// offers that server's resources (`@everything:demo://…`) and its resource templates (their fixed head,
// the person types the rest); after `server:` the URI typed so far narrows them. Answered from the
// resource directory's cached lists (refreshed on `notifications/resources/list_changed`), so a key
// never waits on a server. The servers offered are those every agent reaches (an ACP session's own
// servers have no prompt box).
import { type MentionItem, registerMentionProvider } from '@tack/commands'
import type { Context } from 'cordis'
import { serversFor } from './resource-directory.ts'

export function registerResourceMentions(ctx: Context): () => void {
  return registerMentionProvider(ctx, {
    trigger: '@',
    complete: (query) => resourceMentions(ctx, query),
  })
}

export function resourceMentions(ctx: Context, query: string): MentionItem[] {
  const colon = query.indexOf(':')
  const serverPart = colon === -1 ? query : query.slice(0, colon)
  const uriPart = colon === -1 ? '' : query.slice(colon + 1).toLowerCase()
  const items: MentionItem[] = []
  for (const [name, server] of serversFor(ctx, undefined)) {
    if (colon === -1 ? !name.startsWith(serverPart) : name !== serverPart) continue
    const { resources, templates } = server.lists
    for (const resource of resources) {
      if (!matches(uriPart, resource.uri, resource.name)) continue
      items.push({
        value: `${name}:${resource.uri}`,
        description: resource.title ?? resource.name,
      })
    }
    for (const template of templates) {
      if (!matches(uriPart, template.uriTemplate, template.name)) continue
      const head = template.uriTemplate.split('{')[0] as string
      items.push({
        value: `${name}:${head}`,
        label: `${name}:${template.uriTemplate}`,
        description: `template: ${template.title ?? template.name}`,
        partial: true,
      })
    }
  }
  return items
}

/** Whether the typed part of a URI is in the URI or the name (any case); nothing typed matches all. */
function matches(typed: string, uri: string, name: string): boolean {
  return typed === '' || uri.toLowerCase().includes(typed) || name.toLowerCase().includes(typed)
}
