"""The words NetworkIn's task families put in the user's mouth (Div Garg, a summer intern at AGI Inc): reasons in the
goals, comments, invitation notes, messages and posts. Fixed lists, so every instance is the same on every machine."""

from __future__ import annotations

WHY = ["to keep up with their news", "I'm curious about their internships", "a friend just joined them",
       "for job openings", "I liked their last announcement", "I want their updates in my feed",
       "for my job search next year", "they came up in a class", "to follow their engineering blog",
       "a recruiter mentioned them", "for industry news", "I'm researching them for an interview",
       "my mentor recommended it", "to see their events", "they're hiring new grads", "to learn about their culture",
       "for my side project research", "they sponsor our hackathon", "I use their products every day",
       "to compare them with AGI Inc"]

LIKE_WHY = ["it made me smile", "to show some support", "it's a great point", "I agree with it",
            "to congratulate them", "it's really useful", "I want to see more like it", "it's a good read",
            "to cheer them on", "I learned something from it", "to boost it for others", "it's inspiring",
            "they asked for support", "I enjoyed it", "it's relevant to my job search", "to say thanks",
            "it's well written", "a friend shared it with me", "it's exciting news", "to keep the thread going"]

EVENT_WHY = ["I want to meet people there", "to learn something new", "a friend is going", "for my job search",
             "it fits my interests", "to hear the talks", "to network with engineers", "my manager suggested it",
             "I'm free that day", "to support the organizers", "to see the demos", "for my side project",
             "to meet recruiters", "it sounds fun", "to get feedback on my work", "I missed the last one",
             "to practise my pitch", "for my resume", "to find mentors", "to bring back notes for my team"]

CONNECT_WHY = ["we met at a meetup", "we might work together", "I'd like to learn from them", "for my job search",
               "a friend introduced us", "we have a lot in common", "I read their profile and liked it",
               "to grow my network", "we went to the same conference", "I'd like advice from them"]

COMMENTS = ["Great post, thanks for sharing!", "Congratulations, well deserved!", "This is really helpful.",
            "Love this, thanks for writing it up.", "So true. Saving this for later.", "Exciting news!",
            "Thanks for sharing your experience.", "Great advice for students like me.", "Count me in!",
            "This made my day.", "Inspiring, thank you!", "Well said.", "Looking forward to it!",
            "Really interesting perspective.", "Huge congrats to the whole team!", "Thanks, this is a great reminder."]

NOTES = ["it was great meeting you at the AI Builders Meetup. Let's stay in touch!",
         "I'm a summer intern at AGI Inc and would love to connect.",
         "I enjoyed your posts on software engineering. Could I ask you a few questions?",
         "I'm starting a new project on browser agents and would love your input.",
         "we share a lot of interests. I'd be glad to connect.",
         "I'm a CS student at Stanford hoping to learn from your career path.",
         "a mutual friend suggested we connect. Looking forward to chatting!",
         "I admire your work and would love to keep in touch.",
         "I'm exploring roles in your field and would value your advice.",
         "I'd love to hear how you got started in your role."]

MESSAGES = ["are you free for a quick call this week?", "thanks again for your help this summer!",
            "would you be interested in working on a side project with me?",
            "could you share any tips for new grad interviews?", "I just finished my internship at AGI Inc. Let's catch up!",
            "are you going to the AI Builders Meetup next week?", "would you review my resume when you have a moment?",
            "congrats on the new role! How is it going?", "could we grab coffee next time I'm in town?",
            "I'd love your feedback on a demo I built.", "do you know anyone hiring interns for next summer?",
            "thanks for the advice last time. It really helped!", "happy Friday! Any plans for the weekend?",
            "I saw your post and wanted to say it was great.", "can I ask you a few questions about your team?"]

OPENERS = ["Excited to share that", "Quick update:", "Big news:", "Grateful to say that", "Happy to announce that",
           "Reflecting on this summer:", "Looking back on August:", "A small milestone:", "Some personal news:",
           "Proud moment:", "Thrilled to share that", "Today's highlight:"]

TOPICS = ["I finished my summer internship at AGI Inc.", "our team shipped a browser agent demo.",
          "I'm hosting a study group on machine learning.", "I gave my first tech talk on AI agents.",
          "I'm looking for software engineering internships for 2025.", "my research paper was accepted.",
          "I completed a course on distributed systems.", "our hackathon project won first place.",
          "I'm organizing a networking event for AI builders.", "I'm back at Stanford for my final year."]
