import type { SlotFills } from '../../src/shell/slots';
import { PhpVersionHint } from './PhpVersionHint';

/** What EasyPHP adds to other features' pages: where to install another PHP version. */
export const slots: SlotFills = { 'app.php-versions': PhpVersionHint };
