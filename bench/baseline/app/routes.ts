import { type RouteConfig, index, route } from '@react-router/dev/routes'

export default [index('routes/home.tsx'), route('table', 'routes/table.tsx'), route('document', 'routes/document.tsx')] satisfies RouteConfig
