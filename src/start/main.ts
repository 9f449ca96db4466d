import { exitOnStartupError } from './boot.ts';
import { startApi } from './api.ts';

/** `npm start`: one process serving the API (and, as they arrive, the workers). */
startApi().catch(exitOnStartupError);
