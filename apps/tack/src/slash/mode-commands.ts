// `/tools-mode` and `/permissions` (80-cli.md §5.4): with no argument they show what is in force; with one
// they switch it through the owning package's logged switch (`tools/mode`, `permission/mode`), in force from
// the next request or tool decision and restored on resume. `/model` and `/effort`: model-commands.ts.
import type { CommandDefinition, CommandResult } from '@tack/commands'
import { isPermissionMode, PERMISSION_MODES, permissionModeOf, setPermissionMode } from '@tack/permissions'
import { isToolsMode, setToolsMode, TOOLS_MODES, type ToolRegistry, toolsModeOf } from '@tack/tools'
import type { Context } from 'cordis'

/** What `/permissions` says when the permissions plugin is off: no mode applies, so none is shown or switched. */
export const PERMISSIONS_OFF =
  'permissions are off (plugins.permissions: false): no permission mode applies, tool calls are not checked'

export function modeCommands(
  ctx: Context,
  defaults: { permissionMode: string; permissionsOff?: boolean },
): CommandDefinition[] {
  return [
    {
      name: 'tools-mode',
      description: 'Show or switch how tools reach the model: native, code or both (from the next request)',
      args: 'mode',
      run: ({ agent, args }): CommandResult => {
        const registry = ctx.get('tools') as ToolRegistry & { config?: { mode?: string } }
        const current = toolsModeOf(agent) ?? registry.config?.mode ?? 'native'
        if (!args) return { kind: 'text', text: `tools mode: ${current}` }
        if (!isToolsMode(args))
          return {
            kind: 'error',
            message: `/tools-mode: ${JSON.stringify(args)} is not one of ${TOOLS_MODES.join(', ')}`,
          }
        if (args !== 'native' && !ctx.get('codeRuntime'))
          return {
            kind: 'error',
            message: `/tools-mode ${args} needs the code-runtime plugin, which the config turns off (plugins.codeRuntime: false)`,
          }
        setToolsMode(agent, args)
        return { kind: 'text', text: `tools mode set to ${args} (from the next request)` }
      },
    },
    {
      name: 'permissions',
      description: 'Show or switch the permission mode: ask, workspace-write, read-only or yolo',
      args: 'mode',
      run: ({ agent, args }): CommandResult => {
        // A switch would be logged and restored on resume, yet nothing would read it: say so instead.
        if (defaults.permissionsOff)
          return args
            ? { kind: 'error', message: `/permissions: ${PERMISSIONS_OFF}; nothing to switch` }
            : { kind: 'text', text: PERMISSIONS_OFF }
        const fallback = isPermissionMode(defaults.permissionMode) ? defaults.permissionMode : 'ask'
        if (!args) return { kind: 'text', text: `permission mode: ${permissionModeOf(agent, fallback)}` }
        if (!isPermissionMode(args))
          return {
            kind: 'error',
            message: `/permissions: ${JSON.stringify(args)} is not one of ${PERMISSION_MODES.join(', ')}`,
          }
        setPermissionMode(agent, args)
        return { kind: 'text', text: `permission mode set to ${args} (from the next tool call)` }
      },
    },
  ]
}
