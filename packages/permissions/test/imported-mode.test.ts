// A mode switch that came with an imported log (a `permission/imported` marker after it) narrows the
// agent's own mode but never widens it; a switch made after the import is the user's and wins
// (docs/decisions/0119-reported-and-resumed-permission-mode.md).
import { describe, expect, it } from 'vitest'
import { permissionModeOf, setPermissionMode, settleImportedMode } from '../src/index.ts'
import { kernel, run, stubAgent, workspace } from './support.ts'

/** A resumed agent on a log that holds `mode` from an imported file (the marker after it). */
async function importedAgent(mode: 'yolo' | 'read-only', own: 'workspace-write' | 'ask') {
  const { cwd } = await workspace()
  const writer = stubAgent(cwd)
  setPermissionMode(writer, mode)
  writer.session.append('permission/imported', {})
  return { cwd, agent: { ...stubAgent(cwd, { permissionMode: own }), session: writer.session } }
}

describe('a mode from an imported session log', () => {
  it('TL-36 never widens the mode the run starts in: bash stays denied in ask without an approver', async () => {
    const { cwd, agent } = await importedAgent('yolo', 'ask')
    expect(permissionModeOf(agent, 'yolo')).toBe('ask')
    const k = await kernel({ config: { mode: 'yolo' } })
    expect((await run(k, 'bash', { command: 'cat ~/.ssh/id_rsa' }, { cwd, agent })).error?.code).toBe(
      'DENIED',
    )
    expect(k.commands).toEqual([])
  })

  it('TL-36 may narrow it', async () => {
    const { agent } = await importedAgent('read-only', 'workspace-write')
    expect(permissionModeOf(agent, 'yolo')).toBe('read-only')
    expect(settleImportedMode(agent, 'workspace-write')).toBeUndefined()
  })

  it('TL-36 settling records the run mode for every reader of the log; a later switch is the user and wins', async () => {
    const { agent } = await importedAgent('yolo', 'workspace-write')
    expect(settleImportedMode(agent, 'workspace-write')).toEqual({ logged: 'yolo', mode: 'workspace-write' })
    const modes = agent.session.events().filter((e) => e.type === 'permission/mode')
    expect(modes.map((e) => e.data)).toEqual([{ mode: 'yolo' }, { mode: 'workspace-write' }])
    expect(settleImportedMode(agent, 'workspace-write'), 'settled once').toBeUndefined()
    setPermissionMode(agent, 'yolo')
    expect(permissionModeOf(agent, 'ask')).toBe('yolo')
  })
})
