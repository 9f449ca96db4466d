import { loadConfig } from '../src/infra/config.ts';

/** The local scorer the environment chooses (LOCAL_SCORER), read by the same parser as the service. */
export function scorerSetting(): 'rules' | 'learned' {
  const engine = loadConfig(process.env).engine;
  return engine.kind === 'local' ? engine.scorer : 'learned';
}
