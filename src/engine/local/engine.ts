import type { AnswerEngine, EngineAnswer } from '../types.ts';

/** The offline engine (D5). Being written: answers every cell ERROR until it lands. */
export function createLocalEngine(): AnswerEngine {
  return {
    name: 'local',
    async answer(): Promise<EngineAnswer> {
      return { status: 'ERROR', statusText: 'local engine not ready', facts: [] };
    },
  };
}
