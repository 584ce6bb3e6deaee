// The skills plugin through the real agent loop (85-skills-and-commands.md K3, K4, K4b, K5): the
// catalog in the system prompt, byte-stable across steps and changed once (one header delta, one line
// to the person) when a skill is added mid-session; the skill tool's result; `!cmd` run for the user's
// skill and kept for an untrusted project's; allowed-tools for the rest of the turn; `$name` mentions.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { mentionSuggestions } from '@tack/commands'
import { afterEach, describe, expect, it } from 'vitest'
import { CATALOG_PREAMBLE } from '../src/catalog.ts'
import { type AgentRun, skillResults, skillsAgent, skillsBox, user, writeSkill } from './helpers.ts'

let running: AgentRun | undefined
afterEach(async () => {
  await running?.dispose()
  running = undefined
})

const skillCall = (name: string, args?: string) =>
  toolCalls([{ name: 'skill', args: args === undefined ? { name } : { name, args } }])

describe('the catalog (K3)', () => {
  it('is byte-identical across steps, and a skill added mid-session is one header delta and one line', async () => {
    const box = skillsBox()
    writeSkill(box.user, 'alpha', 'description: Alpha helps.\n', 'alpha body\n')
    writeSkill(
      box.project,
      'people-only',
      'description: Not for models.\ndisable-model-invocation: true\n',
      'x\n',
    )
    const t = (running = await skillsAgent(box, [
      toolCalls([{ name: 'bash', args: { command: 'true' } }]),
      text('one'),
      text('two'),
      text('three'),
    ]))
    await t.agent.send(user('first'))
    writeSkill(box.project, 'beta', 'description: Beta helps too.\n', 'beta body\n')
    await t.agent.send(user('second'))
    await t.agent.send(user('third'))
    const systems = t.model.requests.map((r) => r.system ?? '')
    expect(systems).toHaveLength(4)
    expect(systems[0]).toContain(`${CATALOG_PREAMBLE}\n- alpha: Alpha helps.`)
    expect(systems[0]).not.toContain('people-only')
    expect(systems[1]).toBe(systems[0])
    expect(systems[2]).toContain('- alpha: Alpha helps.\n- beta: Beta helps too.')
    expect(systems[3]).toBe(systems[2])
    const headers = t.events().filter((e) => e.type.startsWith('request/header'))
    expect(headers.map((e) => e.type)).toEqual(['request/header', 'request/header-delta'])
    expect(JSON.stringify(headers[1]?.data)).toContain('beta: Beta helps too.')
    expect(t.said.filter((l) => l.startsWith('skills changed'))).toEqual([
      'skills changed: added beta; the model is told from its next request',
    ])
  })

  it('without skills there is no section and no tool; the first skill brings both in one header delta', async () => {
    const box = skillsBox()
    const t = (running = await skillsAgent(box, [text('one'), text('two')]))
    await t.agent.send(user('first'))
    writeSkill(box.user, 'first-skill', 'description: The first.\n', 'b\n')
    await t.agent.send(user('second'))
    const [before, after] = t.model.requests
    expect(before?.system ?? '').not.toContain('# Skills')
    expect(before?.tools?.map((x) => x.name)).not.toContain('skill')
    expect(after?.system).toContain('- first-skill: The first.')
    expect(after?.tools?.map((x) => x.name)).toContain('skill')
    const headers = t.events().filter((e) => e.type.startsWith('request/header'))
    expect(headers.map((e) => e.type)).toEqual(['request/header', 'request/header-delta'])
  })

  it('a skill written during a turn is loadable by name at once, and in the catalog from the next prompt', async () => {
    const box = skillsBox()
    writeSkill(box.user, 'old', 'description: Old.\n', 'old body\n')
    const made = join(box.user, 'made')
    const write = `mkdir -p ${made} && printf -- '---\\nname: made\\ndescription: Made mid-turn.\\n---\\nmade body\\n' > ${made}/SKILL.md`
    const t = (running = await skillsAgent(box, [
      toolCalls([{ name: 'bash', args: { command: write } }]),
      skillCall('made'),
      text('one'),
      text('two'),
    ]))
    await t.agent.send(user('first'))
    expect(skillResults(t)[0]).toContain('made body')
    await t.agent.send(user('second'))
    const systems = t.model.requests.map((r) => r.system ?? '')
    expect(systems[2]).not.toContain('- made: ')
    expect(systems[3]).toContain('- made: Made mid-turn.')
    expect(t.said.filter((l) => l.startsWith('skills changed'))).toEqual([
      'skills changed: added made; the model is told from its next request',
    ])
  })

  it('is bounded by catalogMaxBytes, with a note naming how many were left out', async () => {
    const box = skillsBox()
    for (const n of ['a1', 'a2', 'a3', 'a4'])
      writeSkill(box.user, n, `description: ${n} ${'d'.repeat(60)}\n`, 'b\n')
    const t = (running = await skillsAgent(box, [text('ok')], {
      catalogMaxBytes: CATALOG_PREAMBLE.length + 250,
    }))
    await t.agent.send(user('go'))
    const system = t.model.requests[0]?.system ?? ''
    const section = system.slice(system.indexOf('# Skills'))
    expect(new TextEncoder().encode(section).length).toBeLessThanOrEqual(CATALOG_PREAMBLE.length + 250)
    expect(section).toContain('- a1: ')
    expect(section).not.toContain('- a4: ')
    expect(section).toMatch(
      /\((\d) more not listed for want of room; the skill tool loads any of them by its exact name\.\)$/,
    )
    expect(t.said.some((l) => /leaves out \d/.test(l))).toBe(true)
  })
})

describe('the skill tool (K4)', () => {
  it('returns the folder line and the body with arguments and the skill folder substituted; a second load says so', async () => {
    const box = skillsBox()
    writeSkill(
      box.user,
      'greet',
      'description: Greets.\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the skill's own placeholder, as written in a SKILL.md
      'Hello $0 and $ARGUMENTS[1] ($ARGUMENTS). See ${CLAUDE_SKILL_DIR}/ref.md\n',
    )
    const t = (running = await skillsAgent(box, [
      skillCall('greet', 'Ada "Grace Hopper"'),
      skillCall('greet', 'again'),
      text('done'),
    ]))
    await t.agent.send(user('go'))
    const [first, second] = skillResults(t)
    const dir = join(box.user, 'greet')
    expect(first).toBe(
      `Skill "greet" — its folder is ${dir} (read the files beside SKILL.md there when it says to).\n\nHello Ada and Grace Hopper (Ada "Grace Hopper"). See ${dir}/ref.md`,
    )
    expect(second).toMatch(/^Skill "greet" is already loaded earlier in this conversation/)
  })

  it('loads a prompt command too (C2): its file line and its body with the arguments', async () => {
    const box = skillsBox()
    mkdirSync(join(box.ws, '.tack/commands/frontend'), { recursive: true })
    writeFileSync(
      join(box.ws, '.tack/commands/frontend/component.md'),
      'Create the component $0 with props $1.\n',
    )
    const t = (running = await skillsAgent(box, [
      skillCall('frontend:component', 'Button "size, tone"'),
      text('done'),
    ]))
    await t.agent.send(user('go'))
    expect(t.model.requests[0]?.system).toContain(
      '- frontend:component: Create the component $0 with props $1.',
    )
    expect(skillResults(t)[0]).toBe(
      `Command "/frontend:component" — from ${join(box.ws, '.tack/commands/frontend/component.md')}.\n\nCreate the component Button with props size, tone.`,
    )
  })

  it('refuses a disable-model-invocation skill and an unknown name, listing what exists', async () => {
    const box = skillsBox()
    writeSkill(box.user, 'shown', 'description: Shown.\n', 'b\n')
    writeSkill(box.user, 'hidden', 'description: Hidden.\ndisable-model-invocation: true\n', 'b\n')
    const t = (running = await skillsAgent(box, [skillCall('hidden'), skillCall('nope'), text('done')]))
    await t.agent.send(user('go'))
    expect(skillResults(t)).toEqual([
      'The skill "hidden" is for people only (disable-model-invocation). Available: shown.',
      'The skill "nope" does not exist. Available: shown.',
    ])
  })

  it("runs !`cmd` through bash for the user's skill, and keeps it for an untrusted project's (no process runs)", async () => {
    const box = skillsBox()
    const made = join(box.root, 'made-by-project')
    writeSkill(box.user, 'mine', 'description: Mine.\n', 'Branch: !`echo user-ran-$((6*7))`\n')
    writeSkill(box.project, 'theirs', 'description: Theirs.\n', `Now: !\`touch ${made} && echo ran\`\n`)
    const t = (running = await skillsAgent(box, [skillCall('mine'), skillCall('theirs'), text('done')]))
    await t.agent.send(user('go'))
    const [mine, theirs] = skillResults(t)
    expect(mine).toContain('Branch: user-ran-42')
    expect(theirs).toContain(`Now: !\`touch ${made} && echo ran\``)
    expect(theirs).toContain('did not run: it comes from this workspace, which is not trusted')
    expect(existsSync(made)).toBe(false)
    const inline = t.events().filter((e) => e.type === 'skill/inline-command')
    expect(inline.map((e) => (e.data as { command: string }).command)).toEqual(['echo user-ran-$((6*7))'])
  })

  it("runs a trusted project skill's !`cmd` through the permission mode: asked with no approver, it is denied", async () => {
    const box = skillsBox()
    const made = join(box.root, 'made')
    writeSkill(box.project, 'theirs', 'description: Theirs.\n', `Now: !\`touch ${made}\`\n`)
    const t = (running = await skillsAgent(box, [skillCall('theirs'), text('done')], {
      trusted: true,
      mode: 'ask',
    }))
    await t.agent.send(user('go'))
    expect(skillResults(t)[0]).toMatch(/Now: \[touch .* did not run: No approver was available/)
    expect(existsSync(made)).toBe(false)
  })
})

describe('allowed-tools (K4, K5)', () => {
  const script = (dir: string) => [
    skillCall('stage'),
    toolCalls([
      { name: 'bash', args: { command: `touch ${dir}/granted` } },
      { name: 'bash', args: { command: `touch ${dir}/also && rm -f ${dir}/nothing` } },
      { name: 'bash', args: { command: `echo hi > ${dir}/not-granted` } },
    ]),
    text('done'),
    toolCalls([{ name: 'bash', args: { command: `touch ${dir}/next-turn` } }]),
    text('done again'),
  ]

  it('pre-approves matching calls for the rest of the turn only, in a trusted workspace, and logs the grant', async () => {
    const box = skillsBox()
    writeSkill(
      box.project,
      'stage',
      'description: Stage.\nallowed-tools: Bash(touch:*), Read(./docs/**)\n',
      'Stage files.\n',
    )
    const t = (running = await skillsAgent(box, script(box.root), { trusted: true, mode: 'ask' }))
    await t.agent.send(user('go'))
    await t.agent.send(user('and again'))
    expect(skillResults(t)[0]).toContain(
      '[tack: allowed-tools pre-approved for the rest of this turn: Bash(touch:*); not understood, so not pre-approved: Read(./docs/**).]',
    )
    expect(existsSync(join(box.root, 'granted'))).toBe(true)
    // every command of a compound line must match; other commands are asked as before (and denied here)
    expect(existsSync(join(box.root, 'also'))).toBe(false)
    expect(existsSync(join(box.root, 'not-granted'))).toBe(false)
    expect(existsSync(join(box.root, 'next-turn'))).toBe(false)
    const grants = t.events().filter((e) => e.type === 'skill/tools-granted')
    expect(grants.map((e) => e.data)).toEqual([
      { turn: 1, patterns: ['Bash(touch:*)'], source: 'skill:stage' },
    ])
  })

  it("ignores a project skill's allowed-tools in an untrusted workspace, with a note", async () => {
    const box = skillsBox()
    writeSkill(box.project, 'stage', 'description: Stage.\nallowed-tools: Bash(touch:*)\n', 'Stage files.\n')
    const t = (running = await skillsAgent(box, script(box.root), { mode: 'ask' }))
    await t.agent.send(user('go'))
    expect(skillResults(t)[0]).toContain(
      '[tack: allowed-tools (Bash(touch:*)) ignored: it comes from this workspace',
    )
    expect(existsSync(join(box.root, 'granted'))).toBe(false)
    expect(t.events().some((e) => e.type === 'skill/tools-granted')).toBe(false)
  })
})

describe('$name mentions (K4b)', () => {
  it("attaches a mentioned skill's SKILL.md once as context; $HOME, $1 and prices stay text", async () => {
    const box = skillsBox()
    writeSkill(box.user, 'deploy', 'description: Deploys.\n', 'Deploy steps: !`echo nope`\n')
    writeSkill(
      box.user,
      'home',
      'description: A skill named like a variable, but people-only.\ndisable-model-invocation: true\n',
      'x\n',
    )
    const t = (running = await skillsAgent(box, [text('ok')]))
    writeFileSync(join(box.ws, 'note'), '')
    await t.agent.send(user('use $deploy, then $deploy again; $HOME $1 costs $5.00 and $home'))
    const contexts = t.events().filter((e) => e.type === 'context/message')
    expect(contexts).toHaveLength(1)
    const body = JSON.stringify(contexts[0]?.data)
    expect(body).toContain('$deploy (skill attached by mention) Skill \\"deploy\\"')
    expect(body).toContain('Deploy steps: !`echo nope`')
    expect(body).toContain('did not run: the skill was attached by a $mention')
    expect(JSON.stringify(t.model.requests[0]?.messages)).toContain('Deploy steps')
  })

  it('the prompt box completes $ words from the skills the model may load', async () => {
    const box = skillsBox()
    writeSkill(box.user, 'deploy', 'description: Deploys.\n', 'x\n')
    writeSkill(box.user, 'redeploy-all', 'description: Redeploys.\n', 'x\n')
    writeSkill(box.user, 'db-setup', 'description: People only.\ndisable-model-invocation: true\n', 'x\n')
    const t = (running = await skillsAgent(box, []))
    const signal = new AbortController().signal
    const values = async (q: string) => (await mentionSuggestions(t.ctx, '$', q, signal)).map((i) => i.value)
    expect(await values('de')).toEqual(['deploy', 'redeploy-all'])
    expect(await values('db')).toEqual([])
    expect(await values('')).toEqual(['deploy', 'redeploy-all'])
  })
})
