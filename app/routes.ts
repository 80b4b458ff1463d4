import { type RouteConfig, index, route } from '@react-router/dev/routes'

export default [
  index('routes/home.tsx'),
  route('login', 'routes/auth/login.tsx'),
  route('reset', 'routes/auth/reset.tsx'),
  route('logout', 'routes/auth/logout.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
