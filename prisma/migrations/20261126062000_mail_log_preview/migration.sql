-- AlterTable: the text of each mail with its sign-in codes and links hidden, for the dashboard's mail detail
ALTER TABLE "mail_log" ADD COLUMN "preview" TEXT;
