export { AppScoped, type Page, type PageQuery } from './app-scoped';
export { connectMongo, isDuplicateKeyError, isMongoConnected } from './connect-mongo';
export { newId, randomBase62 } from './new-id';
