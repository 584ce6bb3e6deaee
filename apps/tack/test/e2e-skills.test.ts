// Agent Skills through the real binary with the scripted model (85-skills-and-commands.md K2–K5, K4b):
// the catalog in every request the model got (byte-identical across steps), the skill tool's result and
// Claude Code's `Skill` as its hooks see it, an untrusted workspace whose skill's !`cmd` does not run
// (and does with --trust), a `$name` mention, and `tack skills list|show`.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { recordClaudeHook } from './claude-hook-recorder.ts'
import { jsonLines, runTack, type Sandbox, sandbox, scriptedModel, textAnswers } from './helpers.ts'

async function skill(dir: string, name: string, front: string, body: string): Promise<void> {
  await mkdir(join(dir, name), { recursive: true })
  await writeFile(join(dir, name, 'SKILL.md'), `---\nname: ${name}\n${front}---\n${body}`)
}

/** The requests the scripted model received (the provider's request log beside its script). */
async function requestsOf(model: string): Promise<Array<{ system?: string; messages: unknown[] }>> {
  const text = await readFile(`${model.slice('scripted/'.length)}.requests.jsonl`, 'utf8')
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
}

const skillResults = (stdout: string) =>
  jsonLines(stdout)
    .filter((l) => l.type === 'tool/result' && (l.data as { name: string }).name === 'skill')
    .map((l) => (l.data as { content: Array<{ text: string }> }).content[0]?.text ?? '')

async function box(): Promise<Sandbox & { userSkills: string; projectSkills: string; marker: string }> {
  const b = await sandbox()
  const userSkills = join(b.home, '.claude', 'skills')
  const projectSkills = join(b.workspace, '.claude', 'skills')
  const marker = join(b.root, 'project-command-ran')
  await skill(
    userSkills,
    'changelog',
    'description: Write a changelog entry.\n',
    'Entry for $ARGUMENTS: !`echo from-user-$((40+2))`\n',
  )
  await skill(
    projectSkills,
    'setup-db',
    'description: Set up the dev database.\n',
    `Run: !\`touch ${marker} && echo created\`\n`,
  )
  return { ...b, userSkills, projectSkills, marker }
}

describe('Agent Skills through tack run', () => {
  test('the catalog reaches every request unchanged; the skill tool loads a body; a Skill hook sees it', async () => {
    const b = await box()
    const seen = await recordClaudeHook(b, 'PreToolUse', 'Skill')
    const model = await scriptedModel(b.root, [
      { kind: 'tool-calls', calls: [{ name: 'skill', args: { name: 'changelog', args: 'v1.2' } }] },
      { kind: 'tool-calls', calls: [{ name: 'skill', args: { name: 'setup-db' } }] },
      { kind: 'text', text: 'done' },
    ])
    const run = await runTack(['run', '--json', '--model', model, 'write the changelog'], {
      env: b.env,
      cwd: b.workspace,
    })
    expect(run.code, run.stderr).toBe(0)
    const requests = await requestsOf(model)
    expect(requests).toHaveLength(3)
    const catalog = '- changelog: Write a changelog entry.\n- setup-db: Set up the dev database.'
    expect(requests[0]?.system).toContain(catalog)
    for (const r of requests) expect(r.system).toBe(requests[0]?.system)
    const [user, project] = skillResults(run.stdout)
    expect(user).toBe(
      `Skill "changelog" — its folder is ${join(b.userSkills, 'changelog')} (read the files beside SKILL.md there when it says to).\n\nEntry for v1.2: from-user-42`,
    )
    // untrusted workspace: its skill is read (it is words) but its command does not run
    expect(project).toContain('did not run: it comes from this workspace, which is not trusted')
    expect(existsSync(b.marker)).toBe(false)
    expect(JSON.stringify(requests[2]?.messages)).toContain('from-user-42')
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Skill',
      tool_input: { skill: 'setup-db' },
    })
  })

  test('with --trust the same project skill runs its command through bash', async () => {
    const b = await box()
    const model = await scriptedModel(b.root, [
      { kind: 'tool-calls', calls: [{ name: 'skill', args: { name: 'setup-db' } }] },
      { kind: 'text', text: 'done' },
    ])
    const run = await runTack(['run', '--json', '--trust', '--model', model, 'set up'], {
      env: b.env,
      cwd: b.workspace,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(skillResults(run.stdout)[0]).toContain('Run: created')
    expect(existsSync(b.marker)).toBe(true)
  })

  test('allowed-tools pre-approves matching bash calls for the turn in a trusted workspace; others are still asked', async () => {
    const b = await box()
    await skill(
      b.projectSkills,
      'stage',
      'description: Stage files.\nallowed-tools: Bash(touch:*)\n',
      'Stage them.\n',
    )
    const granted = join(b.root, 'granted')
    const asked = join(b.root, 'asked')
    const model = await scriptedModel(b.root, [
      { kind: 'tool-calls', calls: [{ name: 'skill', args: { name: 'stage' } }] },
      {
        kind: 'tool-calls',
        calls: [
          { name: 'bash', args: { command: `touch ${granted}` } },
          { name: 'bash', args: { command: `touch ${asked} && echo more` } },
        ],
      },
      { kind: 'text', text: 'done' },
    ])
    const run = await runTack(
      ['run', '--json', '--trust', '--permission-mode', 'ask', '--model', model, 'stage'],
      {
        env: b.env,
        cwd: b.workspace,
      },
    )
    expect(run.code, run.stderr).toBe(0)
    expect(existsSync(granted)).toBe(true)
    expect(existsSync(asked)).toBe(false)
    const lines = jsonLines(run.stdout)
    expect(lines.find((l) => l.type === 'skill/tools-granted')?.data).toEqual({
      turn: 1,
      patterns: ['Bash(touch:*)'],
      source: 'skill:stage',
    })
  })

  test("a skill's allowed-tools cover its own !`cmd` (as Claude Code's do); the model's args cannot chain another command", async () => {
    const b = await box()
    const body = 'Out: !`echo $ARGUMENTS`\n'
    await skill(b.userSkills, 'say', 'description: Say it.\nallowed-tools: Bash(echo:*)\n', body)
    await skill(b.userSkills, 'shout', 'description: Shout it.\nallowed-tools: Bash(echo:*)\n', body)
    const chained = join(b.root, 'chained')
    const model = await scriptedModel(b.root, [
      { kind: 'tool-calls', calls: [{ name: 'skill', args: { name: 'say', args: 'hi there' } }] },
      {
        kind: 'tool-calls',
        calls: [{ name: 'skill', args: { name: 'shout', args: `x; touch ${chained}` } }],
      },
      { kind: 'text', text: 'done' },
    ])
    const run = await runTack(['run', '--json', '--permission-mode', 'ask', '--model', model, 'say'], {
      env: b.env,
      cwd: b.workspace,
    })
    expect(run.code, run.stderr).toBe(0)
    const [said, shouted] = skillResults(run.stdout)
    expect(said).toContain('Out: hi there\n')
    expect(shouted).toContain(`[echo x; touch ${chained} did not run: No approver was available`)
    expect(existsSync(chained)).toBe(false)
  })

  test("a prompt command's allowed-tools cover its own !`cmd`, run before its turn, and nothing after (85-skills-and-commands.md C2)", async () => {
    const b = await box()
    const commands = join(b.home, '.claude', 'commands')
    await mkdir(commands, { recursive: true })
    await writeFile(
      join(commands, 'shout.md'),
      '---\nallowed-tools: Bash(echo:*)\n---\nOut: !`echo $ARGUMENTS`\n',
    )
    await writeFile(join(commands, 'plain.md'), 'Plain: !`echo unlisted`\n')
    const chained = join(b.root, 'chained')
    const model = await scriptedModel(b.root, textAnswers('one', 'two', 'three'))
    const args = ['run', '--json', '--permission-mode', 'ask', '--model', model]
    const shout = await runTack([...args, '/shout hello'], { env: b.env, cwd: b.workspace })
    expect(shout.code, shout.stderr).toBe(0)
    const injected = await runTack(['run', '-c', ...args.slice(1), `/shout x; touch ${chained}`], {
      env: b.env,
      cwd: b.workspace,
    })
    expect(injected.code, injected.stderr).toBe(0)
    const plain = await runTack(['run', '-c', ...args.slice(1), '/plain'], { env: b.env, cwd: b.workspace })
    expect(plain.code, plain.stderr).toBe(0)
    const prompts = (await requestsOf(model)).map((r) => JSON.stringify(r.messages.at(-1)))
    expect(prompts[0]).toContain('Out: hello')
    expect(prompts[1]).toContain(`[echo x; touch ${chained} did not run: No approver was available`)
    expect(existsSync(chained)).toBe(false)
    // a command without allowed-tools, after one with them: its command asks as usual
    expect(prompts[2]).toContain('[echo unlisted did not run: No approver was available')
  })

  test("a prompt command's allowed-tools pre-approve its own turn only (trusted workspace, 85-skills-and-commands.md C2)", async () => {
    const b = await box()
    const commands = join(b.workspace, '.claude', 'commands')
    await mkdir(commands, { recursive: true })
    await writeFile(join(commands, 'stage.md'), '---\nallowed-tools: Bash(touch:*)\n---\nStage $ARGUMENTS.\n')
    const granted = join(b.root, 'granted')
    const later = join(b.root, 'later')
    const model = await scriptedModel(b.root, [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: `touch ${granted}` } }] },
      { kind: 'text', text: 'staged' },
    ])
    const args = ['run', '--json', '--trust', '--permission-mode', 'ask', '--model', model]
    const run = await runTack([...args, '/stage a.txt'], { env: b.env, cwd: b.workspace })
    expect(run.code, run.stderr).toBe(0)
    expect(existsSync(granted)).toBe(true)
    expect(jsonLines(run.stdout).find((l) => l.type === 'skill/tools-granted')?.data).toEqual({
      turn: 1,
      patterns: ['Bash(touch:*)'],
      source: 'command:stage',
    })
    // The next turn of the same session is not the command's: the same kind of call asks, and nobody can answer.
    const next = await scriptedModel(b.root, [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: `touch ${later}` } }] },
      { kind: 'text', text: 'done' },
    ])
    const again = await runTack(
      ['run', '-c', '--json', '--trust', '--permission-mode', 'ask', '--model', next, 'touch it'],
      {
        env: b.env,
        cwd: b.workspace,
      },
    )
    expect(again.code, again.stderr).toBe(0)
    expect(existsSync(later)).toBe(false)
  })

  test('a $name mention attaches the skill once; $HOME stays text', async () => {
    const b = await box()
    const model = await scriptedModel(b.root, [{ kind: 'text', text: 'ok' }])
    const run = await runTack(['run', '--json', '--model', model, 'follow $changelog for $HOME'], {
      env: b.env,
      cwd: b.workspace,
    })
    expect(run.code, run.stderr).toBe(0)
    const contexts = jsonLines(run.stdout).filter((l) => l.type === 'context/message')
    expect(contexts).toHaveLength(1)
    expect(JSON.stringify(contexts[0])).toContain('$changelog (skill attached by mention)')
    const [request] = await requestsOf(model)
    expect(JSON.stringify(request?.messages)).toContain('Entry for $ARGUMENTS')
  })
})

describe('tack skills', () => {
  test('list shows each item, the shadowed one and the warnings; --json the same as data', async () => {
    const b = await box()
    await skill(b.projectSkills, 'changelog', 'description: The project changelog.\n', 'x\n')
    await skill(b.projectSkills, 'broken', 'description: [unclosed\n', 'x\n')
    const list = await runTack(['skills', 'list'], { env: b.env, cwd: b.workspace })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('changelog  skill  user  ~/.claude/skills — Write a changelog entry.')
    expect(list.stdout).toContain('setup-db  skill  project  .claude/skills — Set up the dev database.')
    expect(list.stdout).toContain(
      'changelog  skill  project  .claude/skills — shadowed by the skill in ~/.claude/skills',
    )
    expect(list.stdout).toMatch(/broken\/SKILL\.md: front matter is not valid YAML/)
    const json = await runTack(['skills', 'list', '--json'], { env: b.env, cwd: b.workspace })
    const data = JSON.parse(json.stdout) as {
      items: Array<{ name: string }>
      shadowed: unknown[]
      warnings: unknown[]
    }
    expect(data.items.map((i) => i.name)).toEqual(['changelog', 'setup-db'])
    expect(data.shadowed).toHaveLength(1)
    expect(data.warnings.length).toBeGreaterThan(0)
  })

  test('a project skill whose front matter is an alias bomb is one warning; tack run and tack skills still work (K5)', async () => {
    const b = await box()
    // ten aliases of ten of ten…: 10^9 strings if expanded
    const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 10; i++)
      bomb.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      )
    await mkdir(join(b.projectSkills, 'lol'), { recursive: true })
    await writeFile(
      join(b.projectSkills, 'lol', 'SKILL.md'),
      `---\nname: lol\n${bomb.join('\n')}\ndescription: *a9\n---\nbody\n`,
    )
    const file = join(b.projectSkills, 'lol', 'SKILL.md')
    const list = await runTack(['skills', 'list'], { env: b.env, cwd: b.workspace })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('setup-db')
    expect(list.stdout).toMatch(new RegExp(`${file}: front matter is not valid YAML: .*alias`))
    const model = await scriptedModel(b.root, [{ kind: 'text', text: 'fine' }])
    const run = await runTack(['run', '--model', model, 'hi'], { env: b.env, cwd: b.workspace })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('fine')
    expect(run.stderr).toContain(`${file}: front matter is not valid YAML`)
  })

  test('show prints one item as written (nothing runs); an unknown name is a usage error; --help', async () => {
    const b = await box()
    const show = await runTack(['skills', 'show', 'setup-db'], { env: b.env, cwd: b.workspace })
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toContain(`file:          ${join(b.projectSkills, 'setup-db', 'SKILL.md')}`)
    expect(show.stdout).toContain('Run: !`touch')
    expect(existsSync(b.marker)).toBe(false)
    const unknown = await runTack(['skills', 'show', 'nope'], { env: b.env, cwd: b.workspace })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no skill or command named nope')
    const help = await runTack(['skills', '--help'], { env: b.env, cwd: b.workspace })
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^usage: tack skills SUBCOMMAND/)
  })

  test('doctor counts them and says each unreadable file as a warning', async () => {
    const b = await box()
    await skill(b.projectSkills, 'broken', 'description: [unclosed\n', 'x\n')
    const doctor = await runTack(['doctor'], { env: b.env, cwd: b.workspace })
    expect(doctor.stdout).toMatch(
      /skills +2 skills, 0 commands; catalog \d+ of 16384 bytes \(tack skills list\)/,
    )
    expect(doctor.stdout).toMatch(/- skills: .*broken\/SKILL\.md: front matter is not valid YAML/)
  })

  test('/skills in a session lists the same, and sends nothing to the model', async () => {
    const b = await box()
    const model = await scriptedModel(b.root, [])
    const run = await runTack(['run', '--model', model, '/skills'], { env: b.env, cwd: b.workspace })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('changelog  skill  user  ~/.claude/skills — Write a changelog entry.')
    expect(run.stdout).toContain('setup-db  skill  project  .claude/skills — Set up the dev database.')
    expect(existsSync(`${model.slice('scripted/'.length)}.requests.jsonl`)).toBe(false)
  })
})
