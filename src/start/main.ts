import { startApi } from './api.ts';
import { exitOnStartupError } from './boot.ts';

/** `npm start`: one process serving the API (and, as they arrive, the workers). */
startApi().catch(exitOnStartupError);
