import { createRouter } from '#server/platform/core/http.ts'
import { contactsRouter } from '#server/platform/contacts/http.ts'
import { tldsRouter } from '#server/platform/tlds/http.ts'
import { usersRouter } from '#server/platform/users/http.ts'
import { accountsRouter } from './http.ts'

/** The directory areas of issue 5 (accounts, users, contacts, TLDs), mounted with one line. */
export const directoryRouter = createRouter().route('/', accountsRouter).route('/', usersRouter).route('/', contactsRouter).route('/', tldsRouter)
