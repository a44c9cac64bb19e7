/** The platforms `npm run build` makes an executable for. */
export const PLATFORMS = ['linux-x64', 'win-x64'] as const
export type Platform = (typeof PLATFORMS)[number]

/**
 * The platforms named on `npm run build -- …` (all of them when none is named), or the line that
 * says which name is unknown and which are valid — a typo must stop the build, never build
 * nothing and succeed.
 */
export function selectPlatforms(args: readonly string[]): { platforms: Platform[] } | { problem: string } {
  const named = args.filter((arg) => !arg.startsWith('-'))
  const unknown = named.filter((name) => !(PLATFORMS as readonly string[]).includes(name))
  if (unknown.length > 0) {
    return {
      problem: `Objetivo de compilación desconocido: ${unknown.map((name) => `«${name}»`).join(', ')}. Los válidos son: ${PLATFORMS.join(', ')} (sin nombrar ninguno se construyen todos), por ejemplo npm run build -- ${PLATFORMS[0]}.`,
    }
  }
  return { platforms: named.length === 0 ? [...PLATFORMS] : PLATFORMS.filter((platform) => named.includes(platform)) }
}
