"""The client's words in TopWork's task families (``halo.tasks.families.topwork``): why a conversation is opened or
talent searched, the notes of messages and invitations, contract titles, and job ideas (title, category,
description) with hourly budgets. Parameters only: changing a list changes the families' instances."""

# why a conversation is opened (topwork.read)
WHY = ['before my next call', 'I saw a notification', "it's been waiting since yesterday", 'before lunch',
       'so I can reply later', 'I want to catch up', 'to see what they asked', 'before the standup',
       "I think it's about the project", "so it's no longer unread", 'first thing this morning',
       'to check the details', 'before I head out', 'while I have a minute', 'to read the whole thread',
       'since it looks urgent', 'I promised to look today', 'to see if they need anything', 'for my notes',
       'before the weekly review', 'to plan my day', 'before I answer emails', 'to check on progress',
       'my assistant flagged it', 'so nothing slips', 'to see where we stand']

# why talent is searched (topwork.shortlist)
PURPOSES = ['for a new project', 'to build a shortlist']

# what a message asks (topwork.message; each is sent as "Hi <first name>, <note>")
NOTES = ['are you free this week for a quick call about a project?',
         'could you send me a few samples of your recent work?', 'what is your availability for the next two months?',
         'would you take on a small paid test task first?', 'can you start on a new project next Monday?',
         'do you work with clients in other time zones?',
         'I loved your profile. Could we talk about a long-term contract?',
         'how many hours a week could you give us?', 'would a fixed-price milestone work for you?',
         'could you look at our brief and send an estimate?', 'thanks for the quick turnaround last time!',
         'are you open to a retainer?']

# an invitation's note (topwork.invite; "": none)
INVITE_NOTES = ['', 'Your profile looks like a great fit.', 'Happy to answer any questions.',
                "We'd love to start next week."]

# offers' contract titles (topwork.hire)
CONTRACTS = ['Project Lead', 'Website Rebuild', 'Q3 Sprint Support', 'Launch Campaign', 'Data Cleanup',
             'Mobile App MVP', 'Brand Refresh', 'API Integration', 'Monthly Retainer', 'Onboarding Revamp',
             'Analytics Dashboard', 'Content Calendar', 'Checkout Redesign', 'Cloud Migration', 'Product Demo Video',
             'Customer Portal']

# job posts (topwork.post): title, category (one of the site's), description; and hourly budgets from-to
IDEAS = [
    ('Financial Analyst', 'Finance & Accounting', 'Build monthly reports and a cash-flow forecast.'),
    ('Bookkeeper', 'Finance & Accounting', 'Keep our books and reconcile accounts each month.'),
    ('Data Annotator', 'Data Science & Analytics', 'Label text and images for a machine learning dataset.'),
    ('SQL Report Writer', 'Data Science & Analytics', 'Write SQL reports on sales and customer churn.'),
    ('WordPress Developer', 'Web Development', 'Fix and extend our WordPress site and its plugins.'),
    ('React Front-End Developer', 'Web Development', 'Build new pages for our React web app.'),
    ('Shopify Store Builder', 'Web Development', 'Set up a Shopify store with our products.'),
    ('iOS Developer', 'Mobile Development', 'Ship bug fixes and a new onboarding flow in our iPhone app.'),
    ('Flutter Developer', 'Mobile Development', 'Build a cross-platform app for booking classes.'),
    ('Logo Designer', 'Design & Creative', 'Design a logo and a small brand guide for a new product.'),
    ("Illustrator for Children's Book", 'Design & Creative', 'Draw twelve illustrations for a picture book.'),
    ('Video Editor for Ads', 'Design & Creative', 'Cut short video ads from our product footage.'),
    ('Technical Writer', 'Writing', 'Write user guides and help articles for our software.'),
    ('Newsletter Copywriter', 'Writing', 'Write a weekly email newsletter for our customers.'),
    ('Grant Writer', 'Writing', 'Draft two grant applications for a nonprofit program.'),
    ('Virtual Assistant', 'Admin Support', 'Manage my inbox, calendar and travel bookings.'),
    ('Data Entry Clerk', 'Admin Support', 'Enter product data from spreadsheets into our catalog.'),
    ('Customer Support Agent', 'Admin Support', 'Answer customer emails and chats in our help desk.'),
    ('Recruiting Coordinator', 'Other', 'Schedule interviews and keep our hiring pipeline tidy.'),
    ('Translator English to Spanish', 'Other', 'Translate our website and help center into Spanish.'),
]
RATES = [(15, 25), (20, 35), (30, 45), (45, 65), (50, 80), (60, 90)]
