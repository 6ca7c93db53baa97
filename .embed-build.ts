import setup from './test/setup/tiny-models';
import { buildE2E } from './test/browser/harness';
setup();
buildE2E();
