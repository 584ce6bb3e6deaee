// R4: where the files go. Pure, so each row of the spec's table is a plain test.

export type HostName = 'claude-code' | 'tack'

export function resolveFolder(
  option: unknown,
  host: HostName,
  home: unknown,
  tackHome: unknown,
): string | null {
  const raw = typeof option === 'string' ? option.trim() : ''
  const trimmed = raw.replace(/\/+$/, '')
  const homeDir = typeof home === 'string' && home.startsWith('/') ? home.replace(/\/+$/, '') : null
  if (raw.startsWith('/')) return trimmed === '' ? '/' : trimmed
  if (trimmed === '~' || trimmed.startsWith('~/')) return homeDir === null ? null : homeDir + trimmed.slice(1)
  if (trimmed !== '') return null
  if (host === 'tack') {
    if (typeof tackHome === 'string' && tackHome.startsWith('/'))
      return `${tackHome.replace(/\/+$/, '')}/agent-state`
    return homeDir === null ? null : `${homeDir}/.tack/agent-state`
  }
  return homeDir === null ? null : `${homeDir}/.claude/agent-state`
}
