-- AlterTable: the app schemes a project allows for redirect_uri (null: any app scheme but browser hand-off ones)
ALTER TABLE "auth_settings" ADD COLUMN "redirect_schemes" JSONB;
