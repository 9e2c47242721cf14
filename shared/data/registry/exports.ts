import { exportJob as exportJobView } from '../../views/exports';
import { declare } from './define';

export const exportJob = /* @__PURE__ */ declare({
  name: 'Export',
  itemTypes: ['EXPORT'],
  personal: [],
  about:
    'An export job of customers or leads (its CSV is the object `bulk/exports/<tenant>/<id>.csv` in the files bucket); it carries a TTL of 7 days.',
  prefixes: ['EXPORT'],
  keys: { pk: 'WS#<tenant>#EXPORT#<id>', sk: 'EXPORT' },
  patterns: [{ read: 'export by id', by: 'pk=<tenant>#EXPORT#<id> sk=EXPORT' }],
  schema: () => exportJobView,
});
