/**
 * The runtime configuration main.tsx reads from /config.json before the app
 * renders, installed for the component tests (imported first by setup.ts, so
 * it is in force before lib/api-client is evaluated).
 */
import { configure } from '@/config/env';

configure({ bffUrl: '', backendEnvironment: 'local' });
