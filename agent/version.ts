import pkg from '../package.json' with { type: 'json' };

/** Bundled in by esbuild: the agent reports the version of the panel that built it. */
export const AGENT_VERSION: string = pkg.version;
