import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Password hashes with node:crypto's scrypt (no native addon: the executables are cross-built).
 * The cost parameters and a random salt are stored with each hash
 * (`scrypt$N=32768,r=8,p=1$<salt>$<hash>`, base64), so the cost can be raised later: a login
 * whose hash used a lower cost is rehashed with the current one.
 */
export interface PasswordCost {
  N: number
  r: number
  p: number
}

/** 32 MB and ~80 ms per hash on the reference machine; hashing runs in the thread pool. */
export const DEFAULT_PASSWORD_COST: PasswordCost = { N: 2 ** 15, r: 8, p: 1 }

const KEY_LENGTH = 32

export async function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  const salt = randomBytes(16)
  const hash = await derive(password, salt, cost)
  return `scrypt$N=${cost.N},r=${cost.r},p=${cost.p}$${salt.toString('base64')}$${hash.toString('base64')}`
}

export interface Verification {
  ok: boolean
  /** The hash was made with another cost than the current one: store a new one. */
  needsRehash: boolean
}

/**
 * Compares in constant time. A malformed stored hash never matches. Pass null as `stored` for an
 * unknown user: the same work is done against a dummy hash, so the answer takes the same time.
 */
export async function verifyPassword(
  password: string,
  stored: string | null,
  current: PasswordCost,
): Promise<Verification> {
  const parsed = stored === null ? null : parseHash(stored)
  const target = parsed ?? { cost: current, salt: DUMMY_SALT, hash: Buffer.alloc(KEY_LENGTH) }
  const hash = await derive(password, target.salt, target.cost)
  const ok = parsed !== null && target.hash.length === hash.length && timingSafeEqual(target.hash, hash)
  const needsRehash = ok && (target.cost.N !== current.N || target.cost.r !== current.r || target.cost.p !== current.p)
  return { ok, needsRehash }
}

const DUMMY_SALT = Buffer.alloc(16, 7)

function parseHash(stored: string): { cost: PasswordCost; salt: Buffer; hash: Buffer } | null {
  const match = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored)
  if (match === null) return null
  return {
    cost: { N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) },
    salt: Buffer.from(match[4]!, 'base64'),
    hash: Buffer.from(match[5]!, 'base64'),
  }
}

function derive(password: string, salt: Buffer, cost: PasswordCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}
