/** `npm run build`'s second half: the API server and the CLI as JavaScript in apps/api/dist (see compileApi). */
import { compileApi } from '@portal/dev-stack';

await compileApi();
