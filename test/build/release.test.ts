import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { headingAnchors, linksOf } from '../../build/guide-links.ts'
import { INNER_CHECKSUMS, SHIPPED_GUIDES, writeChecksums, writeReleaseArchive } from '../../build/release.ts'
import { selectPlatforms, type Platform } from '../../build/targets.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VERSION = '9.9.9'
const MTIME = new Date('2026-11-22T16:00:00Z')

/** Each platform's archive, how to unpack it, and the files only it carries. */
const ARCHIVES: Array<{ platform: Platform; unpack: (archive: string, into: string) => void; own: string[] }> = [
  {
    platform: 'linux-x64',
    unpack: (archive, into) => execFileSync('tar', ['-xzf', archive, '-C', into]),
    own: ['manifiesto', 'manifiesto.service'],
  },
  {
    platform: 'win-x64',
    unpack: (archive, into) => execFileSync('unzip', ['-q', archive, '-d', into]),
    own: ['manifiesto.exe', 'manifiesto-service.xml'],
  },
]

function hasCommand(command: string): boolean {
  return (spawnSync(command, ['-h'], { stdio: 'ignore' }).error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT'
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort()
}

/** The archive built around a stand-in executable, unpacked: its folder. */
function unpacked(platform: Platform, unpack: (archive: string, into: string) => void): string {
  const work = mkdtempSync(join(tmpdir(), 'manifiesto-release-'))
  const dist = join(work, 'dist')
  mkdirSync(dist)
  writeFileSync(join(work, 'programa'), 'un ejecutable de prueba')
  const archive = writeReleaseArchive(platform, join(work, 'programa'), {
    root: ROOT,
    dist,
    version: VERSION,
    mtime: MTIME,
  })
  unpack(archive, work)
  return join(work, `manifiesto-${VERSION}`)
}

for (const { platform, unpack, own } of ARCHIVES) {
  const skip = hasCommand(platform === 'win-x64' ? 'unzip' : 'tar')
    ? false
    : 'unzip is not installed (apt-get install unzip)'

  test(
    `release ${platform}: the archive stands alone — the program, its service definition, config.example.json, LEAME.md and every guide with its pictures`,
    { skip },
    () => {
      const folder = unpacked(platform, unpack)
      try {
        const files = filesUnder(folder)
        for (const file of [...own, 'config.example.json', 'LEAME.md', INNER_CHECKSUMS, ...SHIPPED_GUIDES])
          assert.ok(files.includes(file), `${file} is in the archive (it holds ${files.join(', ')})`)
        const pictures = files.filter((file) => file.startsWith('docs/img/'))
        assert.ok(
          pictures.length >= 5 && pictures.every((file) => file.endsWith('.png')),
          `the console guide's pictures: ${pictures.join(', ')}`,
        )
        assert.ok(!files.includes('README.md'), "the developer's README is not shipped")
        assert.ok(!files.some((file) => file.includes('desarrollo')), 'nor the developer guides')
        assert.equal(statSync(join(folder, own[0]!)).mode & 0o777, 0o755)
      } finally {
        rmSync(join(folder, '..'), { recursive: true, force: true })
      }
    },
  )

  test(
    `release ${platform}: every link of every shipped guide resolves inside the unpacked archive (file and heading)`,
    { skip },
    () => {
      const folder = unpacked(platform, unpack)
      try {
        const guides = filesUnder(folder).filter((file) => file.endsWith('.md'))
        assert.ok(guides.length >= SHIPPED_GUIDES.length)
        const broken: string[] = []
        let checked = 0
        for (const guide of guides) {
          const text = readFileSync(join(folder, guide), 'utf8')
          for (const link of linksOf(folder, guide, text)) {
            checked++
            const file = link.file === '' ? guide : link.file
            if (file.startsWith('..')) {
              broken.push(`${guide}: ${link.target} leads out of the archive`)
              continue
            }
            let target: string
            try {
              target = readFileSync(join(folder, file), 'utf8')
            } catch {
              broken.push(`${guide}: ${link.target} → ${file} is not in the archive`)
              continue
            }
            if (link.anchor !== null && file.endsWith('.md') && !headingAnchors(target).has(link.anchor))
              broken.push(`${guide}: ${link.target} → no heading #${link.anchor} in ${file}`)
          }
        }
        assert.ok(checked > 50, `${checked} links checked`)
        assert.deepEqual(broken, [])
      } finally {
        rmSync(join(folder, '..'), { recursive: true, force: true })
      }
    },
  )
}

test(
  'release linux-x64: the SHA256SUMS inside the folder verifies every file beside it (sha256sum -c)',
  { skip: hasCommand('sha256sum') ? false : 'sha256sum is not installed' },
  () => {
    const folder = unpacked('linux-x64', (archive, into) => execFileSync('tar', ['-xzf', archive, '-C', into]))
    try {
      const listed = readFileSync(join(folder, INNER_CHECKSUMS), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.slice(66))
      assert.deepEqual(
        listed,
        filesUnder(folder).filter((file) => file !== INNER_CHECKSUMS),
      )
      const output = execFileSync('sha256sum', ['-c', INNER_CHECKSUMS], {
        cwd: folder,
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: 'C' },
      })
      assert.equal(
        output
          .trim()
          .split('\n')
          .filter((line) => line.endsWith(': OK')).length,
        listed.length,
      )
    } finally {
      rmSync(join(folder, '..'), { recursive: true, force: true })
    }
  },
)

const targets: Array<{ args: string[]; expected: { platforms: Platform[] } | { problem: RegExp } }> = [
  { args: [], expected: { platforms: ['linux-x64', 'win-x64'] } },
  { args: ['linux-x64'], expected: { platforms: ['linux-x64'] } },
  { args: ['win-x64', '--verbose'], expected: { platforms: ['win-x64'] } },
  {
    args: ['windows-x64'],
    expected: {
      problem:
        /^Objetivo de compilación desconocido: «windows-x64»\. Los válidos son: linux-x64, win-x64 \(sin nombrar ninguno se construyen todos\), por ejemplo npm run build -- linux-x64\.$/,
    },
  },
  { args: ['linux-x64', 'macos'], expected: { problem: /desconocido: «macos»/ } },
]
for (const { args, expected } of targets) {
  test(`build targets: ${JSON.stringify(args)} → ${'problem' in expected ? 'refused, naming the valid ones' : expected.platforms.join(', ')}`, () => {
    const selected = selectPlatforms(args)
    if ('problem' in expected) assert.match('problem' in selected ? selected.problem : '(accepted)', expected.problem)
    else assert.deepEqual(selected, expected)
  })
}

test(
  'build: an unknown target stops `npm run build` with exit code 2 before anything is built or downloaded, and no SHA256SUMS is written',
  { timeout: 120_000 },
  () => {
    const dist = join(ROOT, 'build/dist/SHA256SUMS')
    const before = statSync(dist, { throwIfNoEntry: false })?.mtimeMs ?? null
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'build/build.ts', 'windows-x64'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 100_000,
    })
    assert.equal(result.status, 2, result.stdout + result.stderr)
    assert.match(
      result.stderr,
      /^Objetivo de compilación desconocido: «windows-x64»\. Los válidos son: linux-x64, win-x64/,
    )
    assert.equal(result.stdout, '')
    assert.equal(statSync(dist, { throwIfNoEntry: false })?.mtimeMs ?? null, before, 'SHA256SUMS untouched')
  },
)

test('build: SHA256SUMS over nothing is refused (a build that made nothing publishes no sums)', () => {
  assert.throws(() => writeChecksums(mkdtempSync(join(tmpdir(), 'manifiesto-sums-')), []), /no se construyó nada/)
})
