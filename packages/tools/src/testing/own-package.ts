// What the "tool from its own package" fixtures (`stamp`, `label`) share: a body that writes a file,
// creating its folders (blindly: the workspace scope must hold it, not the tool), and a plugin of the
// tool's own that registers it, as a third-party tool package would.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { definePlugin, Schema } from '@tack/kernel'
import { registerTool } from '../registry.ts'
import type { ToolDefinition } from '../types.ts'

export async function writeCreatingFolders(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

/** A plugin named `name` that registers `tool` and nothing else. */
export function pluginOfTool(name: string, tool: ToolDefinition) {
  return definePlugin({
    name,
    Config: Schema.object({}),
    inject: ['tools'],
    apply(ctx) {
      registerTool(ctx, tool)
    },
  })
}
