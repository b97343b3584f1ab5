import { Badge, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    // Badges hold short statuses and scores: shown whole (Mantine would cut them with an ellipsis in narrow table cells).
    Badge: Badge.extend({ styles: { root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } } }),
  },
});
