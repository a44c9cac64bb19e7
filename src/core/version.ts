import packageJson from '../../package.json' with { type: 'json' }

/** The application's version, from package.json (bundled into the executable). */
export const VERSION: string = packageJson.version
